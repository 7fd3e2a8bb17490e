//! The browser client says in both languages what the server names in English: each
//! bot of the registry has a description in German and English (`botdesc.<game>.<spec>`
//! in web/src/i18n/messages.json), so the lobby's and the seat menu's bot choices never
//! fall back to the server's English text on a German page.

use serde_json::Value;

#[test]
fn every_bot_of_the_registry_is_described_in_german_and_english() {
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../web/src/i18n/messages.json"
    );
    let messages: Value = serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap();
    let mut missing = Vec::new();
    for bot in play::bots::REGISTRY {
        let key = format!("botdesc.{}.{}", bot.game.name(), bot.spec);
        let entry = &messages[&key];
        for lang in ["en", "de"] {
            if entry[lang].as_str().is_none_or(str::is_empty) {
                missing.push(format!("{key} ({lang})"));
            }
        }
        // The level word leads the description in English, as the server's text does.
        if let Some(en) = entry["en"].as_str() {
            let level = bot.description.split(':').next().unwrap();
            assert!(
                en.starts_with(level),
                "{key}: {en:?} vs the registry's {:?}",
                bot.description
            );
        }
    }
    assert!(
        missing.is_empty(),
        "bots without a description: {missing:?}"
    );
}
