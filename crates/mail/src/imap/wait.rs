//! Waiting for new mail: IDLE where the server has it (RFC 2177), NOOP polling elsewhere.
//!
//! IDLE is re-issued at least every [`IDLE_CHUNK`] (servers may drop an IDLE older than 30
//! minutes), and always ended with DONE so the session can go on. The stop signal is any
//! future: when it completes, the wait ends (IDLE with DONE) and says [`WaitOutcome::Stopped`].

use std::future::Future;
use std::time::Duration;

use async_imap::extensions::idle::{Handle, IdleResponse};
use async_imap::imap_proto::{MailboxDatum, Response};
use tokio::time::Instant;

use super::stream::{Stream, timed};
use super::{Doing, Imap, ImapError};

/// The longest single IDLE; RFC 2177 asks clients to re-issue IDLE before 29 minutes.
pub const IDLE_CHUNK: Duration = Duration::from_secs(25 * 60);

/// How [`Imap::wait`] ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum WaitOutcome {
    /// The mailbox got new messages: time for [`Imap::fetch_since`].
    NewMail,
    /// Nothing new within the time-out.
    Timeout,
    /// The stop signal fired.
    Stopped,
}

/// What ended one IDLE round.
enum Event {
    Stop,
    ChunkEnd,
    Idle(Result<IdleResponse, async_imap::error::Error>),
}

impl Imap {
    /// Waits until new mail arrives in the mailbox, `timeout` passes, or `stop` completes.
    ///
    /// New mail that arrived since the last call (noticed during other commands) is reported
    /// at once. With IDLE the server pushes the news (Dovecot: ~0.5 s after delivery); without
    /// it a NOOP is sent at once and then every poll interval ([`Imap::set_poll_interval`]).
    /// `stop` is polled only by this call, e.g. `async { let _ = rx.wait_for(|s| *s).await; }`
    /// for a `tokio::sync::watch` receiver, or `std::future::pending()` for none.
    pub async fn wait<F>(&mut self, timeout: Duration, stop: F) -> Result<WaitOutcome, ImapError>
    where
        F: Future<Output = ()>,
    {
        let deadline = Instant::now() + timeout;
        let mut stop = std::pin::pin!(stop);
        self.drain_unsolicited();
        if std::mem::take(&mut self.new_mail) {
            return Ok(WaitOutcome::NewMail);
        }
        let outcome = if self.has_idle && self.use_idle {
            self.wait_idle(deadline, stop.as_mut()).await?
        } else {
            self.wait_poll(deadline, stop.as_mut()).await?
        };
        // Mail counted while ending IDLE is news too; a stop keeps it for a later call.
        match outcome {
            WaitOutcome::Stopped => Ok(outcome),
            _ if std::mem::take(&mut self.new_mail) => Ok(WaitOutcome::NewMail),
            _ => Ok(outcome),
        }
    }

    async fn wait_poll<F>(
        &mut self,
        deadline: Instant,
        mut stop: std::pin::Pin<&mut F>,
    ) -> Result<WaitOutcome, ImapError>
    where
        F: Future<Output = ()>,
    {
        let limit = self.timeout;
        loop {
            let session = self.session()?;
            timed(limit, "NOOP", async {
                session
                    .noop()
                    .await
                    .map_err(|e| ImapError::from_imap("NOOP", e))
            })
            .await?;
            self.drain_unsolicited();
            if self.new_mail {
                return Ok(WaitOutcome::NewMail);
            }
            if Instant::now() >= deadline {
                return Ok(WaitOutcome::Timeout);
            }
            let next = (Instant::now() + self.poll_interval).min(deadline);
            tokio::select! {
                biased;
                () = stop.as_mut() => return Ok(WaitOutcome::Stopped),
                () = tokio::time::sleep_until(next) => {}
            }
        }
    }

    async fn wait_idle<F>(
        &mut self,
        deadline: Instant,
        mut stop: std::pin::Pin<&mut F>,
    ) -> Result<WaitOutcome, ImapError>
    where
        F: Future<Output = ()>,
    {
        let mut handle = self.start_idle().await?;
        let outcome = loop {
            let chunk_end = (Instant::now() + IDLE_CHUNK).min(deadline);
            let event = {
                // The per-response time-out of async-imap is not used: our own deadline rules.
                let (idle, _interrupt) = handle.wait_with_timeout(IDLE_CHUNK * 2);
                tokio::select! {
                    biased;
                    () = stop.as_mut() => Event::Stop,
                    () = tokio::time::sleep_until(chunk_end) => Event::ChunkEnd,
                    r = idle => Event::Idle(r),
                }
            };
            match event {
                Event::Stop => break WaitOutcome::Stopped,
                Event::ChunkEnd if Instant::now() >= deadline => break WaitOutcome::Timeout,
                Event::ChunkEnd => {
                    // Re-issue IDLE: DONE, then IDLE again.
                    self.finish_idle(handle).await?;
                    if self.new_mail {
                        return Ok(WaitOutcome::NewMail);
                    }
                    handle = self.start_idle().await?;
                }
                Event::Idle(Ok(IdleResponse::NewData(data))) => {
                    if self.note_idle_response(data.parsed()) {
                        break WaitOutcome::NewMail;
                    }
                }
                Event::Idle(Ok(IdleResponse::Timeout)) => {}
                // With our interrupt still alive, this means the stream ended.
                Event::Idle(Ok(IdleResponse::ManualInterrupt)) => {
                    return Err(ImapError::closed(super::Doing::IdleClosed));
                }
                Event::Idle(Err(e)) => return Err(ImapError::from_imap("IDLE", e)),
            }
        };
        self.finish_idle(handle).await?;
        Ok(outcome)
    }

    /// Sends IDLE and waits for the server's `+ idling`. On failure the session is gone.
    async fn start_idle(&mut self) -> Result<Handle<Stream>, ImapError> {
        let session = self.take_session()?;
        let mut handle = session.idle();
        timed(self.timeout, "IDLE", async {
            handle
                .init()
                .await
                .map_err(|e| ImapError::from_imap("IDLE", e))
        })
        .await?;
        tracing::trace!(server = %self.server, "IDLE started");
        Ok(handle)
    }

    /// Ends IDLE with DONE and takes the session back; what the server said meanwhile is
    /// counted.
    async fn finish_idle(&mut self, handle: Handle<Stream>) -> Result<(), ImapError> {
        let session = timed(self.timeout, "DONE", async {
            handle
                .done()
                .await
                .map_err(|e| ImapError::from_imap(Doing::EndingIdle, e))
        })
        .await?;
        self.session = Some(session);
        self.drain_unsolicited();
        tracing::trace!(server = %self.server, "IDLE ended");
        Ok(())
    }

    /// Counts an untagged response pushed during IDLE; true when it is new mail.
    fn note_idle_response(&mut self, response: &Response<'_>) -> bool {
        match response {
            Response::MailboxData(MailboxDatum::Exists(n)) => {
                let grew = *n > self.exists;
                self.exists = *n;
                grew
            }
            Response::Expunge(_) => {
                self.exists = self.exists.saturating_sub(1);
                false
            }
            _ => false,
        }
    }
}
