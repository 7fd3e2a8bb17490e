//! Challenges (seats kept for an account at a waiting table) under caps, and blocks
//! (#56): one account must not fill another's challenge list.
//!
//! - Keeping a seat for an account needs a signed-in creator (a block names an
//!   account; a guest could not be blocked).
//! - A creator has at most [`ChallengeLimits::per_sender`] challenges open (waiting
//!   tables where they sit and a seat waits for another account), counted by account
//!   whatever the address: one more is 429 `too_many_challenges`.
//! - An account has at most [`ChallengeLimits::per_receiver`] challenges waiting for
//!   it: one more is 429 `challenges_full` to its sender.
//! - An account may block others (`/api/me/blocks`): a table that keeps a seat for an
//!   account that blocked its creator is refused with 403 `challenges_refused`
//!   ("this player does not take challenges from you": the same words whether the
//!   player blocked only you, so the sender learns no more than that), and the
//!   challenges of a blocked account already waiting leave the list.

use std::sync::Arc;

use crate::error::ApiError;
use crate::store::StoredAccount;
use crate::wire::{BlockedAccount, ErrorCode};

use super::Hub;

/// How challenges and blocks are limited.
#[derive(Clone, Debug)]
pub struct ChallengeLimits {
    /// Challenges one account may have open as their creator (0: no cap).
    pub per_sender: u64,
    /// Challenges that may wait for one account (0: no cap).
    pub per_receiver: u64,
    /// Accounts one account may block.
    pub max_blocks: u64,
}

impl Default for ChallengeLimits {
    fn default() -> Self {
        ChallengeLimits {
            per_sender: 10,
            per_receiver: 30,
            max_blocks: 500,
        }
    }
}

/// `Retry-After` of a refused challenge: challenges end when taken, declined or the
/// table is left; no clock says when.
const CHALLENGE_RETRY_AFTER: std::time::Duration = std::time::Duration::from_secs(60);

impl Hub {
    /// Whether `creator` may keep seats for `challenged` at a new table.
    pub(super) async fn admit_challenges(
        &self,
        creator: Option<&StoredAccount>,
        challenged: &[&StoredAccount],
    ) -> Result<(), ApiError> {
        if challenged.is_empty() {
            return Ok(());
        }
        let Some(creator) = creator else {
            return Err(ApiError::unauthorized(
                ErrorCode::NotSignedIn,
                "sign in to keep a seat for another player's account",
            ));
        };
        let limits = &self.options.challenges;
        for player in challenged {
            if self.store.is_blocked(&player.id, &creator.id).await? {
                return Err(ApiError::forbidden(
                    ErrorCode::ChallengesRefused,
                    format!("{} does not take challenges from you", player.name),
                ));
            }
        }
        let cap = limits.per_sender;
        if cap > 0 && self.store.challenges_sent(&creator.id).await? >= cap {
            return Err(ApiError::too_many_for(
                ErrorCode::TooManyChallenges,
                format!(
                    "you have {cap} challenges open, the most; wait until one is taken or declined, or leave one"
                ),
                CHALLENGE_RETRY_AFTER,
            ));
        }
        let cap = limits.per_receiver;
        for player in challenged {
            if cap > 0 && self.store.challenges_waiting(&player.id).await? >= cap {
                return Err(ApiError::too_many_for(
                    ErrorCode::ChallengesFull,
                    format!(
                        "{} has {cap} challenges waiting, the most; try again later",
                        player.name
                    ),
                    CHALLENGE_RETRY_AFTER,
                ));
            }
        }
        Ok(())
    }

    /// Blocks the account named `name` for `account`: its challenges no longer reach
    /// it. Blocking one already blocked changes nothing.
    pub async fn block(
        self: &Arc<Self>,
        account: &StoredAccount,
        name: &str,
    ) -> Result<(), ApiError> {
        let other = self.named_account(name).await?;
        if other.id == account.id {
            return Err(ApiError::bad_request(
                ErrorCode::BadRequest,
                "that is your own account",
            ));
        }
        let cap = self.options.challenges.max_blocks;
        if self.store.block_count(&account.id).await? >= cap {
            return Err(ApiError::conflict(
                ErrorCode::TooManyBlocks,
                format!("you have blocked {cap} accounts, the most; unblock one first"),
            ));
        }
        self.store
            .block(&account.id, &other.id, self.now_ms())
            .await?;
        Ok(())
    }

    /// Lifts the block of the account named `name`; 404 when there was none.
    pub async fn unblock(
        self: &Arc<Self>,
        account: &StoredAccount,
        name: &str,
    ) -> Result<(), ApiError> {
        let other = self.named_account(name).await?;
        if !self.store.unblock(&account.id, &other.id).await? {
            return Err(ApiError::not_found(
                ErrorCode::NotFound,
                format!("you have not blocked {}", other.name),
            ));
        }
        Ok(())
    }

    /// The accounts `account` blocked, most recent first.
    pub async fn blocks(
        self: &Arc<Self>,
        account: &StoredAccount,
    ) -> Result<Vec<BlockedAccount>, ApiError> {
        Ok(self
            .store
            .blocks_of(&account.id)
            .await?
            .into_iter()
            .map(|b| BlockedAccount {
                name: b.name,
                since_ms: b.at_ms,
            })
            .collect())
    }

    async fn named_account(&self, name: &str) -> Result<StoredAccount, ApiError> {
        self.accounts.by_name(name).await?.ok_or_else(|| {
            ApiError::not_found(
                ErrorCode::UnknownPlayer,
                format!(
                    "there is no player named `{}`",
                    name.chars().take(40).collect::<String>()
                ),
            )
        })
    }
}
