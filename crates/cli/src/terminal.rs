//! The terminal table both games share (`rumi play rumis|rummikub`): people and bots in
//! seats around one game of the `play` interface. This loop decides whose turn it is,
//! asks the seat's bot or person, applies the actions, deals the next round and ends
//! the game; each game's [`Frontend`] keeps only what is its own: drawing the game and
//! reading a person's commands.
//!
//! Input comes from any `BufRead` and output goes to any `Write`, so a whole session
//! can be scripted and tested.

use std::io::{BufRead, Write};

use anyhow::{anyhow, bail, Context};
use play::bots::{Bot, WithBots};
use play::game::Game;

/// Who sits in a seat.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Seat {
    Human,
    /// A bot of the game, by its spec (`mcts:3`, `planner:5`).
    Bot(String),
}

impl Seat {
    /// Reads `human` or one of `G`'s bots; anything else is an error that says what
    /// is accepted.
    pub fn parse<G: WithBots>(text: &str) -> anyhow::Result<Seat> {
        let text = text.trim();
        if text.eq_ignore_ascii_case("human") {
            return Ok(Seat::Human);
        }
        G::bot(text, 0)
            .map(|_| Seat::Bot(text.to_ascii_lowercase()))
            .map_err(|e| anyhow!("seat `{text}`: {e}; or human"))
    }

    /// Reads comma-separated seats, one per player.
    pub fn parse_all<G: WithBots>(texts: &[String]) -> anyhow::Result<Vec<Seat>> {
        texts.iter().map(|t| Seat::parse::<G>(t)).collect()
    }

    /// `human` or the bot's spec.
    pub fn name(&self) -> &str {
        match self {
            Seat::Human => "human",
            Seat::Bot(spec) => spec,
        }
    }
}

/// The seats as the command line writes them (`human,greedy`).
pub fn seats_text(seats: &[Seat]) -> String {
    seats.iter().map(Seat::name).collect::<Vec<_>>().join(",")
}

/// One bot per bot seat (`None` for people), each with its own stream of chance: the
/// seed mixed with its seat.
pub fn seat_bots<G: WithBots>(
    seats: &[Seat],
    seed: u64,
) -> anyhow::Result<Vec<Option<Box<dyn Bot<G>>>>> {
    seats
        .iter()
        .enumerate()
        .map(|(seat, s)| match s {
            Seat::Human => Ok(None),
            Seat::Bot(spec) => {
                let bot_seed = seed ^ (seat as u64 + 1).wrapping_mul(0x9E37_79B9_7F4A_7C15);
                Ok(Some(G::bot(spec, bot_seed)?))
            }
        })
        .collect()
}

/// A seed from the clock, for a game the command line gave none.
pub fn clock_seed() -> u64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_nanos() as u64 % 1_000_000)
}

/// The person at the keyboard: lines in, text out.
pub struct Console<'a> {
    input: &'a mut dyn BufRead,
    pub out: &'a mut dyn Write,
    /// Write each line read after its prompt (piped input, so that the log reads well).
    echo: bool,
}

impl<'a> Console<'a> {
    pub fn new(input: &'a mut dyn BufRead, out: &'a mut dyn Write, echo: bool) -> Console<'a> {
        Console { input, out, echo }
    }

    /// Writes `prompt`, reads a line (trimmed); `None` once the input has ended.
    pub fn ask(&mut self, prompt: &str) -> anyhow::Result<Option<String>> {
        write!(self.out, "{prompt}")?;
        self.out.flush()?;
        let mut line = String::new();
        if self.input.read_line(&mut line)? == 0 {
            return Ok(None);
        }
        let line = line.trim().to_string();
        if self.echo {
            writeln!(self.out, "{line}")?;
        }
        Ok(Some(line))
    }

    pub fn say(&mut self, text: &str) -> anyhow::Result<()> {
        self.out.write_all(text.as_bytes())?;
        Ok(())
    }
}

/// Whether the game goes on.
pub enum Flow {
    Continue,
    /// The people left (or the input ended).
    Quit,
}

/// What a person decided on their turn.
pub enum Turn<A> {
    /// These actions, in order (a Rumis R16 turn is two).
    Play(Vec<A>),
    Quit,
}

/// How a session ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Ending {
    /// The game is over; the final score was shown.
    Finished,
    /// A person quit (or the input ended) before the end.
    Quit,
}

/// What one game shows and reads at the terminal. The front end holds the game; the
/// loop ([`play_session`]) plays it.
pub trait Frontend<G: Game> {
    fn game(&self) -> &G;

    fn game_mut(&mut self) -> &mut G;

    /// Shown once, before anything else.
    fn intro(&self) -> String;

    /// Before every turn and at the end: what the front end tells of itself (events, a
    /// round's end, a new round). People may be asked things here (K2: a new deal);
    /// `Quit` when they leave.
    fn between_turns(&mut self, console: &mut Console) -> anyhow::Result<Flow>;

    /// A person's turn at `seat`: their commands until they act or quit.
    fn human_turn(&mut self, seat: usize, console: &mut Console)
        -> anyhow::Result<Turn<G::Action>>;

    /// What `seat` just did; [`Frontend::game`] is the game after it, `before` the game
    /// before.
    fn played(
        &mut self,
        before: &G,
        seat: usize,
        actions: &[G::Action],
        events: &[G::Event],
    ) -> String;

    /// The final score and the winners.
    fn finished(&mut self) -> String;

    /// The game was left before its end.
    fn abandoned(&mut self) -> String;
}

/// Plays the game to its end or until a person quits: bots choose from their seat's
/// observation, people through the front end.
pub fn play_session<G: Game, F: Frontend<G>>(
    front: &mut F,
    bots: &mut [Option<Box<dyn Bot<G>>>],
    console: &mut Console,
) -> anyhow::Result<Ending> {
    if bots.len() != front.game().seats() {
        bail!(
            "{} seats given for {} players",
            bots.len(),
            front.game().seats()
        );
    }
    console.say(&front.intro())?;
    let ending = loop {
        if let Flow::Quit = front.between_turns(console)? {
            break Ending::Quit;
        }
        if front.game().outcome().is_some() {
            break Ending::Finished;
        }
        if front.game().awaits_next_round() {
            front.game_mut().start_next_round()?;
            continue;
        }
        let seat = front
            .game()
            .to_act()
            .context("nobody is to act, though the game is not over")?;
        let actions = match bots[seat].as_mut() {
            Some(bot) => {
                let observation = front.game().observe(seat);
                let action = bot
                    .choose(&observation, seat)
                    .with_context(|| format!("the {} bot of seat {}", bot.name(), seat + 1))?;
                vec![action]
            }
            None => match front.human_turn(seat, console)? {
                Turn::Play(actions) => actions,
                Turn::Quit => break Ending::Quit,
            },
        };
        let before = front.game().clone();
        let mut events = Vec::with_capacity(actions.len());
        for action in &actions {
            match front.game_mut().apply(seat, action) {
                Ok(event) => events.push(event),
                Err(e) if bots[seat].is_none() => {
                    // A person's turn stands or falls whole.
                    *front.game_mut() = before.clone();
                    console.say(&format!("not played: {e}\n"))?;
                    events.clear();
                    break;
                }
                Err(e) => bail!(
                    "the {} bot of seat {} chose `{}`: {e}",
                    seat_bot_name(bots, seat),
                    seat + 1,
                    before.format_action(action)
                ),
            }
        }
        if events.len() == actions.len() {
            let text = front.played(&before, seat, &actions, &events);
            console.say(&text)?;
        }
    };
    let text = match ending {
        Ending::Finished => front.finished(),
        Ending::Quit => front.abandoned(),
    };
    console.say(&text)?;
    console.out.flush()?;
    Ok(ending)
}

fn seat_bot_name<G: Game>(bots: &[Option<Box<dyn Bot<G>>>], seat: usize) -> String {
    bots[seat].as_ref().map_or_else(String::new, |b| b.name())
}
