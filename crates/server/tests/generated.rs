//! The files generated from the wire types are current: the client's TypeScript types
//! (`web/src/generated/api.ts`) and the OpenAPI document (`docs/openapi.json`). When
//! the wire types change, regenerate them with
//! `RUMI_WRITE_GENERATED=1 cargo test -p server --test generated`.

use std::path::PathBuf;

use server::wire::*;
use ts_rs::{Config, TS};

fn repo() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// Every wire type as an exported TypeScript declaration, in a stable order.
fn typescript() -> String {
    let cfg = Config::new().with_large_int("number");
    let decls = [
        GameKind::decl(&cfg),
        ScenarioKey::decl(&cfg),
        VariantName::decl(&cfg),
        RulesPreset::decl(&cfg),
        BotName::decl(&cfg),
        SeatName::decl(&cfg),
        NewName::decl(&cfg),
        TableId::decl(&cfg),
        SeatToken::decl(&cfg),
        RumisSettings::decl(&cfg),
        RummikubSettings::decl(&cfg),
        SeatKind::decl(&cfg),
        SeatRequest::decl(&cfg),
        CreateTableRequest::decl(&cfg),
        SeatGrant::decl(&cfg),
        CreatedSeat::decl(&cfg),
        CreateTableResponse::decl(&cfg),
        JoinRequest::decl(&cfg),
        ClaimRequest::decl(&cfg),
        RematchRequest::decl(&cfg),
        ActionRequest::decl(&cfg),
        WireAction::decl(&cfg),
        BotRequest::decl(&cfg),
        NameRequest::decl(&cfg),
        RumisSuggestion::decl(&cfg),
        ErrorCode::decl(&cfg),
        ErrorBody::decl(&cfg),
        RefusalCode::decl(&cfg),
        Reason::decl(&cfg),
        EventCode::decl(&cfg),
        Event::decl(&cfg),
        SetProblemCode::decl(&cfg),
        TableStatus::decl(&cfg),
        SeatView::decl(&cfg),
        ResultView::decl(&cfg),
        Fairness::decl(&cfg),
        BotTrouble::decl(&cfg),
        BotTroubleCode::decl(&cfg),
        TableView::decl(&cfg),
        GameView::decl(&cfg),
        ScenarioView::decl(&cfg),
        CubeView::decl(&cfg),
        ColourView::decl(&cfg),
        PlacementView::decl(&cfg),
        RumisView::decl(&cfg),
        RulesView::decl(&cfg),
        RoundOverView::decl(&cfg),
        RummikubView::decl(&cfg),
        LobbySeat::decl(&cfg),
        LobbyTable::decl(&cfg),
        LobbyTables::decl(&cfg),
        ScenarioMeta::decl(&cfg),
        RatingPool::decl(&cfg),
        BotRatingMeta::decl(&cfg),
        BotMeta::decl(&cfg),
        RumisMeta::decl(&cfg),
        RummikubMeta::decl(&cfg),
        LimitsMeta::decl(&cfg),
        Meta::decl(&cfg),
        CheckResult::decl(&cfg),
        HintPlay::decl(&cfg),
        HintAnswer::decl(&cfg),
        LoggedAction::decl(&cfg),
        TableSettings::decl(&cfg),
        GameSettings::decl(&cfg),
        ReplayAnswer::decl(&cfg),
        ReviewStatus::decl(&cfg),
        ReviewAnswer::decl(&cfg),
        ReviewTurn::decl(&cfg),
        PlayedKind::decl(&cfg),
        RummikubPlayed::decl(&cfg),
        RummikubTurnReview::decl(&cfg),
        Judgement::decl(&cfg),
        RumisTurnReview::decl(&cfg),
        RumisReviewMethod::decl(&cfg),
        ReviewPlayer::decl(&cfg),
        RummikubPlayerReview::decl(&cfg),
        RumisPlayerReview::decl(&cfg),
        ClientMessage::decl(&cfg),
        ServerMessage::decl(&cfg),
        PatchOp::decl(&cfg),
        NodeStatus::decl(&cfg),
        Health::decl(&cfg),
        Credentials::decl(&cfg),
        AccountView::decl(&cfg),
        PasswordChange::decl(&cfg),
        Reauth::decl(&cfg),
        DeleteAccount::decl(&cfg),
        SessionData::decl(&cfg),
        AccountData::decl(&cfg),
        RatingView::decl(&cfg),
        PlayerResult::decl(&cfg),
        UserGame::decl(&cfg),
        PoolTotals::decl(&cfg),
        RatingPoint::decl(&cfg),
        UserProfile::decl(&cfg),
        LeaderboardEntry::decl(&cfg),
        Leaderboard::decl(&cfg),
        MyGame::decl(&cfg),
        MyGames::decl(&cfg),
        GuestSeat::decl(&cfg),
        AdoptSeats::decl(&cfg),
        AdoptedSeats::decl(&cfg),
        SessionRequest::decl(&cfg),
        Challenge::decl(&cfg),
        Challenges::decl(&cfg),
        BlockRequest::decl(&cfg),
        BlockedAccount::decl(&cfg),
        Blocks::decl(&cfg),
        PasskeyView::decl(&cfg),
        Passkeys::decl(&cfg),
        PasskeyChallenge::decl(&cfg),
        PasskeyRegistration::decl(&cfg),
        PasskeySignInStart::decl(&cfg),
        PasskeySignIn::decl(&cfg),
        TutorialKey::decl(&cfg),
        TutorialGoal::decl(&cfg),
        Tutorial::decl(&cfg),
        TutorialStep::decl(&cfg),
        TutorialCheck::decl(&cfg),
        RummikubAnalysisRequest::decl(&cfg),
        RummikubAnalysis::decl(&cfg),
        RumisAnalysisRequest::decl(&cfg),
        RumisAnalysis::decl(&cfg),
        StepKept::decl(&cfg),
        RumisBestMoves::decl(&cfg),
        RumisAnalysisPosition::decl(&cfg),
        RummikubPuzzleView::decl(&cfg),
        RummikubPuzzleSummary::decl(&cfg),
        RummikubPuzzleList::decl(&cfg),
        RummikubPuzzleAttempt::decl(&cfg),
        PuzzleVerdict::decl(&cfg),
        RummikubPuzzleCheck::decl(&cfg),
        RummikubPuzzleSolution::decl(&cfg),
        SoloLevel::decl(&cfg),
        SoloPiece::decl(&cfg),
        SoloBuild::decl(&cfg),
        SoloState::decl(&cfg),
        SoloPlace::decl(&cfg),
        SoloPlaced::decl(&cfg),
        SoloAnswer::decl(&cfg),
        SoloFinishable::decl(&cfg),
        SoloHint::decl(&cfg),
        SoloImpossible::decl(&cfg),
        SoloLevelInfo::decl(&cfg),
        SoloLevels::decl(&cfg),
        SoloFinish::decl(&cfg),
        SoloBest::decl(&cfg),
        SoloBests::decl(&cfg),
        SoloRecorded::decl(&cfg),
    ];
    let mut out = String::from(
        "// Generated from crates/server/src/wire/ by crates/server/tests/generated.rs.\n\
         // Do not edit: change the Rust types and run\n\
         // RUMI_WRITE_GENERATED=1 cargo test -p server --test generated\n\n",
    );
    for decl in decls {
        out.push_str("export ");
        out.push_str(&decl);
        out.push_str("\n\n");
    }
    out.trim_end().to_string() + "\n"
}

/// Compares a generated file with the one checked in (or writes it when asked).
fn check_current(path: PathBuf, generated: String) {
    if std::env::var_os("RUMI_WRITE_GENERATED").is_some() {
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(&path, generated).unwrap();
        return;
    }
    let checked_in = std::fs::read_to_string(&path).unwrap_or_default();
    assert!(
        checked_in == generated,
        "{} is not what the wire types generate; run \
         RUMI_WRITE_GENERATED=1 cargo test -p server --test generated and commit it",
        path.display()
    );
}

#[test]
fn the_clients_typescript_types_are_generated_from_the_wire_types() {
    check_current(repo().join("web/src/generated/api.ts"), typescript());
}

#[test]
fn the_openapi_document_is_generated_from_the_wire_types() {
    check_current(
        repo().join("docs/openapi.json"),
        server::http::openapi_document() + "\n",
    );
}
