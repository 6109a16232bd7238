//! Net snapshots per entity (`net` feature): a character's graph state replicated as a few
//! integers (the runtime's [`animgraph_runtime::net`]). The game moves the bytes; this crate
//! captures them on the authority after each advance and applies received ones on the remote
//! before its advance.
//!
//! ```no_run
//! # use bevy::prelude::*;
//! # use animgraph_bevy::{AnimGraphAuthority, AnimGraphRemote};
//! // On the server: send each new packet (a delta once the client acknowledged a baseline).
//! fn send(mut q: Query<&mut AnimGraphAuthority>) {
//!     for mut authority in &mut q {
//!         if let Some(bytes) = authority.take_packet() {
//!             // socket.send(bytes) ...
//!             # let _ = bytes;
//!         }
//!     }
//! }
//! // On the client: hand received bytes over; acknowledge what was applied.
//! fn receive(mut q: Query<&mut AnimGraphRemote>) {
//!     for mut remote in &mut q {
//!         # let bytes: &[u8] = &[];
//!         remote.receive(bytes);
//!         for tick in remote.take_acks() {
//!             // socket.send_ack(tick) ...
//!             # let _ = tick;
//!         }
//!     }
//! }
//! ```

use animgraph_runtime::AnimationGraphPlayer;
use animgraph_runtime::net::{Authority, NetError, Received, Remote};
use bevy::ecs::prelude::*;
use bevy::time::Time;

use crate::{AnimGraph2D, AnimGraph3D};

/// Captures the character's graph state after each advance, every `every` frames, into a
/// packet for the game to send.
#[derive(Component, Debug)]
pub struct AnimGraphAuthority {
    authority: Authority,
    packet: Vec<u8>,
    fresh: bool,
    every: u32,
    frames: u32,
}

impl Default for AnimGraphAuthority {
    fn default() -> Self {
        AnimGraphAuthority {
            authority: Authority::default(),
            packet: Vec::new(),
            fresh: false,
            every: 1,
            frames: 0,
        }
    }
}

impl AnimGraphAuthority {
    /// A snapshot every `frames` frames (the game's network tick; 1: every frame).
    pub fn every(frames: u32) -> Self {
        AnimGraphAuthority { every: frames.max(1), ..Default::default() }
    }

    /// The packet captured since the last call, if any.
    pub fn take_packet(&mut self) -> Option<&[u8]> {
        std::mem::take(&mut self.fresh).then_some(&self.packet[..])
    }

    /// The remote applied the snapshot of `tick`: later packets are deltas against it.
    pub fn ack(&mut self, tick: u64) {
        self.authority.ack(tick);
    }

    fn capture(&mut self, player: &mut AnimationGraphPlayer) {
        self.frames += 1;
        if self.frames >= self.every {
            self.frames = 0;
            self.authority.snapshot(player, &mut self.packet);
            self.fresh = true;
        }
    }
}

/// Applies received packets to the character before it advances: newer ones in any order,
/// duplicates and late ones ignored, garbage refused (counted, the last error kept).
#[derive(Component, Debug, Default)]
pub struct AnimGraphRemote {
    remote: Remote,
    inbox: Vec<Vec<u8>>,
    /// Emptied buffers, reused for the next packets.
    spare: Vec<Vec<u8>>,
    acks: Vec<u64>,
    /// Packets refused (malformed, for another graph, or a delta whose baseline is missing).
    pub refused: u64,
    /// Why the last refused packet was refused.
    pub last_error: Option<NetError>,
}

impl AnimGraphRemote {
    /// Queues a received packet (applied before the next advance).
    pub fn receive(&mut self, bytes: &[u8]) {
        let mut buffer = self.spare.pop().unwrap_or_default();
        buffer.clear();
        buffer.extend_from_slice(bytes);
        self.inbox.push(buffer);
    }

    /// The ticks applied since the last call, to acknowledge to the authority.
    pub fn take_acks(&mut self) -> impl Iterator<Item = u64> + '_ {
        self.acks.drain(..)
    }

    /// The newest applied tick.
    pub fn applied_tick(&self) -> Option<u64> {
        self.remote.applied_tick()
    }

    /// Packets ignored as duplicates or late.
    pub fn stale(&self) -> u64 {
        self.remote.stale
    }

    fn apply(&mut self, player: &mut AnimationGraphPlayer, delta: f32) {
        let mut inbox = std::mem::take(&mut self.inbox);
        for bytes in inbox.drain(..) {
            match self.remote.receive(&bytes, player, delta) {
                Ok(Received::Applied(tick)) => self.acks.push(tick),
                Ok(Received::Stale(_)) => {}
                Err(e) => {
                    self.refused += 1;
                    self.last_error = Some(e);
                }
            }
            self.spare.push(bytes);
        }
        self.inbox = inbox;
    }
}

/// Before the advance: received packets onto remotes.
pub(crate) fn apply_remote(
    time: Res<Time>,
    mut two: Query<(&mut AnimGraph2D, &mut AnimGraphRemote)>,
    mut three: Query<(&mut AnimGraph3D, &mut AnimGraphRemote), Without<AnimGraph2D>>,
) {
    let delta = time.delta_secs();
    for (mut c, mut remote) in &mut two {
        if let Some(player) = c.player_mut() {
            remote.apply(player, delta);
        }
    }
    for (mut c, mut remote) in &mut three {
        if let Some(player) = c.player_mut() {
            remote.apply(player, delta);
        }
    }
}

/// After the advance: authorities' snapshots.
pub(crate) fn capture_authority(
    mut two: Query<(&mut AnimGraph2D, &mut AnimGraphAuthority)>,
    mut three: Query<(&mut AnimGraph3D, &mut AnimGraphAuthority), Without<AnimGraph2D>>,
) {
    for (mut c, mut authority) in &mut two {
        if let Some(player) = c.player_mut() {
            authority.capture(player);
        }
    }
    for (mut c, mut authority) in &mut three {
        if let Some(player) = c.player_mut() {
            authority.capture(player);
        }
    }
}
