//! Networking: a graph's state replicated as a few integers, decoded without trust, applied
//! deterministically on a remote.
//!
//! * [`AnimationGraphPlayer::capture_net`] fills a [`NetState`]: per layer the playing states
//!   (state id, entry tick; with weights only while an interruption chain blends several), the
//!   running transition (its id, target, start tick, duration) and sub-machine exit bits; bool,
//!   int and float parameters; triggers fired since the last capture.
//! * [`encode`] / [`decode`] write it compactly: a version byte, varints (LEB128, ticks as ages
//!   relative to the snapshot's tick), bools as bits, ints zigzagged, floats raw (f32, so no
//!   quantisation error), frozen blend weights as u16 (error at most 7.7e-6). A delta against an
//!   acknowledged baseline carries only changed layers and parameters. `decode` never panics,
//!   bounds every count, and rejects garbage with an error.
//! * [`AnimationGraphPlayer::apply_net`] rebuilds the layers on a remote. States and transitions
//!   equal the authority's for that tick exactly; sample weights match within 1e-4 (transition
//!   progress is `ticks x delta` where the authority summed deltas; frozen weights are u16).
//!   Clip times are derived from the state's present rate, so they match exactly only while
//!   rates were constant since the state was entered.
//! * [`AnimationGraphPlayer::snapshot`] / [`restore`](AnimationGraphPlayer::restore) are for
//!   rollback: bit-identical re-simulation.
//! * [`Authority`] and [`Remote`] wrap it for games: one snapshot per network tick (a delta when
//!   a baseline was acknowledged), and a receiver that ignores duplicates and late packets,
//!   applies newer ones in any order, and acknowledges what it applied.

pub use crate::graph::player::{NetLayer, NetSource, NetState, NetTransition, ReplicationError};
use crate::graph::{AnimationGraphPlayer, TransitionInterrupt};

/// The format version written as the first byte.
pub const NET_VERSION: u8 = 2;
const MAX_LAYERS: usize = 255;
const MAX_SOURCES: usize = 8;
const MAX_PARAMETERS: usize = 4096;

/// Why bytes or a state were refused.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum NetError {
    /// Not a snapshot of this version, truncated or malformed.
    #[error("malformed snapshot: {0}")]
    Malformed(&'static str),
    /// A delta whose baseline the receiver does not have.
    #[error("delta against tick {0}, which this receiver does not have")]
    MissingBaseline(u64),
    /// The state does not fit the player's graph.
    #[error("{0}")]
    Mismatch(String),
}

impl From<ReplicationError> for NetError {
    fn from(error: ReplicationError) -> Self {
        let ReplicationError::Mismatch(message) = error;
        NetError::Mismatch(message)
    }
}

fn put_varint(out: &mut Vec<u8>, mut v: u64) {
    loop {
        let byte = (v & 0x7f) as u8;
        v >>= 7;
        if v == 0 {
            out.push(byte);
            return;
        }
        out.push(byte | 0x80);
    }
}

fn zigzag(v: i32) -> u64 {
    ((v << 1) ^ (v >> 31)) as u32 as u64
}

fn unzigzag(v: u64) -> i32 {
    let v = v as u32;
    ((v >> 1) as i32) ^ -((v & 1) as i32)
}

fn put_bits(out: &mut Vec<u8>, bits: &[bool]) {
    put_bit_iter(out, bits.iter().copied());
}

/// [`put_bits`] from an iterator (eight to a byte, first bit lowest), so computed flags need
/// no list of their own.
fn put_bit_iter(out: &mut Vec<u8>, bits: impl Iterator<Item = bool>) {
    let (mut byte, mut n) = (0u8, 0);
    for on in bits {
        byte |= (on as u8) << n;
        n += 1;
        if n == 8 {
            out.push(byte);
            (byte, n) = (0, 0);
        }
    }
    if n > 0 {
        out.push(byte);
    }
}

struct Reader<'a> {
    bytes: &'a [u8],
    at: usize,
}

impl Reader<'_> {
    fn byte(&mut self) -> Result<u8, NetError> {
        let b = *self.bytes.get(self.at).ok_or(NetError::Malformed("truncated"))?;
        self.at += 1;
        Ok(b)
    }

    fn varint(&mut self) -> Result<u64, NetError> {
        let mut v = 0u64;
        for shift in (0..64).step_by(7) {
            let b = self.byte()?;
            v |= ((b & 0x7f) as u64) << shift;
            if b & 0x80 == 0 {
                return Ok(v);
            }
        }
        Err(NetError::Malformed("varint longer than 10 bytes"))
    }

    fn count(&mut self, max: usize) -> Result<usize, NetError> {
        let n = self.varint()?;
        if n > max as u64 {
            return Err(NetError::Malformed("count out of range"));
        }
        Ok(n as usize)
    }

    fn remaining(&self) -> usize {
        self.bytes.len().saturating_sub(self.at)
    }

    fn f32(&mut self) -> Result<f32, NetError> {
        let mut b = [0u8; 4];
        for x in &mut b {
            *x = self.byte()?;
        }
        Ok(f32::from_le_bytes(b))
    }

    fn bits(&mut self, n: usize) -> Result<Vec<bool>, NetError> {
        let mut out = Vec::with_capacity(n);
        for _ in 0..n.div_ceil(8) {
            let b = self.byte()?;
            for i in 0..8 {
                if out.len() < n {
                    out.push(b & (1 << i) != 0);
                }
            }
        }
        Ok(out)
    }

    fn tick(&mut self, now: u64) -> Result<u64, NetError> {
        now.checked_sub(self.varint()?).ok_or(NetError::Malformed("a tick before zero"))
    }
}

fn interrupt_code(i: TransitionInterrupt) -> u8 {
    TransitionInterrupt::ALL.iter().position(|x| *x == i).unwrap_or(0) as u8
}

fn put_layer(out: &mut Vec<u8>, layer: &NetLayer, tick: u64) {
    // Flags: bit 0 transition, bit 1 several sources, bit 2 layer weight not 1, bit 3 exit bits,
    // bit 4 a transition extras byte (bit 0 explicit duration, bit 1 explicit start offset),
    // bits 5-6 the transition's interrupt mode, bit 7 a path travel's hops left.
    let several = layer.sources.len() > 1;
    let flags = layer.transition.is_some() as u8
        | (several as u8) << 1
        | ((layer.layer_weight != 1.0) as u8) << 2
        | ((layer.current_exited != 0 || layer.transition.is_some_and(|t| t.target_exited != 0)) as u8) << 3
        | (layer.transition.is_some_and(|t| t.duration.is_some() || t.offset.is_some()) as u8) << 4
        | layer.transition.map_or(0, |t| interrupt_code(t.interrupt)) << 5
        | (!layer.travel.is_empty() as u8) << 7;
    out.push(flags);
    if several {
        put_varint(out, layer.sources.len() as u64);
        put_varint(out, layer.current as u64);
    }
    for s in &layer.sources {
        put_varint(out, s.state as u64);
        put_varint(out, tick - s.entry_tick.min(tick));
        if several {
            out.extend_from_slice(&((s.weight.clamp(0.0, 1.0) * 65535.0).round() as u16).to_le_bytes());
        }
    }
    if flags & 4 != 0 {
        out.extend_from_slice(&layer.layer_weight.to_le_bytes());
    }
    if let Some(t) = layer.transition {
        put_varint(out, t.transition.map_or(0, |id| id as u64 + 1));
        put_varint(out, t.target as u64);
        put_varint(out, tick - t.start_tick.min(tick));
        if flags & 0x10 != 0 {
            out.push(t.duration.is_some() as u8 | (t.offset.is_some() as u8) << 1);
        }
        if let Some(d) = t.duration {
            out.extend_from_slice(&d.to_le_bytes());
        }
        if let Some(o) = t.offset {
            out.extend_from_slice(&o.to_le_bytes());
        }
    }
    if flags & 8 != 0 {
        put_varint(out, layer.current_exited as u64);
        put_varint(out, layer.transition.map_or(0, |t| t.target_exited) as u64);
    }
    if flags & 0x80 != 0 {
        put_varint(out, layer.travel.len() as u64);
        for &hop in &layer.travel {
            put_varint(out, hop as u64);
        }
    }
}

fn read_layer(r: &mut Reader, tick: u64) -> Result<NetLayer, NetError> {
    let flags = r.byte()?;
    if flags & 1 == 0 && flags & 0x70 != 0 {
        return Err(NetError::Malformed("unknown layer flags"));
    }
    let several = flags & 2 != 0;
    let (count, current) = if several { (r.count(MAX_SOURCES)?, r.count(MAX_SOURCES)?) } else { (1, 0) };
    if count == 0 || current >= count {
        return Err(NetError::Malformed("bad source list"));
    }
    let mut sources = Vec::with_capacity(count);
    for _ in 0..count {
        let state = r.count(u16::MAX as usize)? as u16;
        let entry_tick = r.tick(tick)?;
        let weight = if several { u16::from_le_bytes([r.byte()?, r.byte()?]) as f32 / 65535.0 } else { 1.0 };
        sources.push(NetSource { state, entry_tick, weight });
    }
    let layer_weight = if flags & 4 != 0 { r.f32()? } else { 1.0 };
    let mut transition = None;
    if flags & 1 != 0 {
        let id = r.count(u16::MAX as usize + 1)?;
        let target = r.count(u16::MAX as usize)? as u16;
        let start_tick = r.tick(tick)?;
        let extras = if flags & 0x10 != 0 { r.byte()? } else { 0 };
        if extras & !3 != 0 || (flags & 0x10 != 0 && extras == 0) {
            return Err(NetError::Malformed("unknown transition extras"));
        }
        let duration = if extras & 1 != 0 { Some(r.f32()?) } else { None };
        let offset = if extras & 2 != 0 { Some(r.f32()?) } else { None };
        let interrupt = TransitionInterrupt::ALL[((flags >> 5) & 3) as usize];
        if duration.is_some_and(|d| !d.is_finite()) || (duration.is_none() && id == 0) {
            return Err(NetError::Malformed("bad duration"));
        }
        if offset.is_some_and(|o| !o.is_finite()) {
            return Err(NetError::Malformed("bad start offset"));
        }
        transition = Some(NetTransition {
            transition: id.checked_sub(1).map(|i| i as u16),
            target,
            start_tick,
            duration,
            interrupt,
            offset,
            target_exited: 0,
        });
    }
    let mut current_exited = 0;
    if flags & 8 != 0 {
        current_exited = r.count(u32::MAX as usize)? as u32;
        let target_exited = r.count(u32::MAX as usize)? as u32;
        if let Some(t) = &mut transition {
            t.target_exited = target_exited;
        }
    }
    let mut travel = Vec::new();
    if flags & 0x80 != 0 {
        let count = r.count(u16::MAX as usize)?;
        if count == 0 {
            return Err(NetError::Malformed("an empty travel path is flagged"));
        }
        // Each hop takes at least one byte: a count past what is left is refused before allocating.
        travel.reserve(count.min(r.remaining()));
        for _ in 0..count {
            travel.push(r.count(u16::MAX as usize)? as u16);
        }
    }
    Ok(NetLayer { sources, current: current as u8, current_exited, layer_weight, transition, travel })
}

/// Encodes a state; with a `baseline` (a state the receiver acknowledged), only what changed.
pub fn encode(state: &NetState, baseline: Option<&NetState>, out: &mut Vec<u8>) {
    out.clear();
    out.push(NET_VERSION);
    put_varint(out, state.tick);
    // A baseline only helps when it describes the same graph.
    let baseline = baseline.filter(|b| {
        b.layers.len() == state.layers.len()
            && b.bools.len() == state.bools.len()
            && b.ints.len() == state.ints.len()
            && b.floats.len() == state.floats.len()
            && b.triggers.len() == state.triggers.len()
            && b.tick <= state.tick
    });
    match baseline {
        None => {
            out.push(0);
            put_varint(out, state.layers.len() as u64);
            for layer in &state.layers {
                put_layer(out, layer, state.tick);
            }
            put_varint(out, state.bools.len() as u64);
            put_bits(out, &state.bools);
            put_varint(out, state.ints.len() as u64);
            for &i in &state.ints {
                put_varint(out, zigzag(i));
            }
            put_varint(out, state.floats.len() as u64);
            for f in &state.floats {
                out.extend_from_slice(&f.to_le_bytes());
            }
        }
        Some(base) => {
            out.push(1);
            put_varint(out, state.tick - base.tick);
            // Change flags computed twice (for the bits, then for what follows) rather than
            // collected: encoding allocates nothing beyond `out`.
            let changed_layers = || state.layers.iter().zip(&base.layers).map(|(a, b)| a != b);
            put_bit_iter(out, changed_layers());
            for (layer, changed) in state.layers.iter().zip(changed_layers()) {
                if changed {
                    put_layer(out, layer, state.tick);
                }
            }
            let bools_changed = state.bools != base.bools;
            out.push(bools_changed as u8);
            if bools_changed {
                put_bits(out, &state.bools);
            }
            let ints_changed = || state.ints.iter().zip(&base.ints).map(|(a, b)| a != b);
            put_bit_iter(out, ints_changed());
            for (i, c) in state.ints.iter().zip(ints_changed()) {
                if c {
                    put_varint(out, zigzag(*i));
                }
            }
            let floats_changed =
                || state.floats.iter().zip(&base.floats).map(|(a, b)| a.to_bits() != b.to_bits());
            put_bit_iter(out, floats_changed());
            for (f, c) in state.floats.iter().zip(floats_changed()) {
                if c {
                    out.extend_from_slice(&f.to_le_bytes());
                }
            }
        }
    }
    put_varint(out, state.triggers.len() as u64);
    put_bits(out, &state.triggers);
}

/// The tick a snapshot describes and, for a delta, its baseline's tick (without decoding it all).
pub fn peek(bytes: &[u8]) -> Result<(u64, Option<u64>), NetError> {
    let mut r = Reader { bytes, at: 0 };
    if r.byte()? != NET_VERSION {
        return Err(NetError::Malformed("unknown version"));
    }
    let tick = r.varint()?;
    match r.byte()? {
        0 => Ok((tick, None)),
        1 => Ok((tick, Some(r.tick(tick)?))),
        _ => Err(NetError::Malformed("unknown kind")),
    }
}

/// Decodes bytes from [`encode`]. A delta needs its `baseline` (the state with the tick that
/// [`peek`] reports). Never panics; every count is bounded.
pub fn decode(bytes: &[u8], baseline: Option<&NetState>) -> Result<NetState, NetError> {
    let mut r = Reader { bytes, at: 0 };
    if r.byte()? != NET_VERSION {
        return Err(NetError::Malformed("unknown version"));
    }
    let tick = r.varint()?;
    let mut state = match r.byte()? {
        0 => {
            let layer_count = r.count(MAX_LAYERS)?;
            let mut layers = Vec::with_capacity(layer_count);
            for _ in 0..layer_count {
                layers.push(read_layer(&mut r, tick)?);
            }
            let n = r.count(MAX_PARAMETERS)?;
            let bools = r.bits(n)?;
            let n = r.count(MAX_PARAMETERS)?;
            let mut ints = Vec::with_capacity(n);
            for _ in 0..n {
                ints.push(unzigzag(r.count(u32::MAX as usize)? as u64));
            }
            let n = r.count(MAX_PARAMETERS)?;
            let mut floats = Vec::with_capacity(n);
            for _ in 0..n {
                floats.push(r.f32()?);
            }
            NetState { tick, layers, bools, ints, floats, triggers: Vec::new() }
        }
        1 => {
            let base_tick = r.tick(tick)?;
            let base =
                baseline.filter(|b| b.tick == base_tick).ok_or(NetError::MissingBaseline(base_tick))?;
            let mut state = base.clone();
            state.tick = tick;
            let changed = r.bits(base.layers.len())?;
            for (l, c) in changed.iter().enumerate() {
                if *c {
                    state.layers[l] = read_layer(&mut r, tick)?;
                }
            }
            if r.byte()? != 0 {
                state.bools = r.bits(base.bools.len())?;
            }
            let changed = r.bits(base.ints.len())?;
            for (i, c) in changed.iter().enumerate() {
                if *c {
                    state.ints[i] = unzigzag(r.count(u32::MAX as usize)? as u64);
                }
            }
            let changed = r.bits(base.floats.len())?;
            for (i, c) in changed.iter().enumerate() {
                if *c {
                    state.floats[i] = r.f32()?;
                }
            }
            state
        }
        _ => return Err(NetError::Malformed("unknown kind")),
    };
    let n = r.count(MAX_PARAMETERS)?;
    state.triggers = r.bits(n)?;
    if r.at != bytes.len() {
        return Err(NetError::Malformed("trailing bytes"));
    }
    Ok(state)
}

/// Keeps the last `N` sent or received states by tick (baselines for deltas).
const HISTORY: usize = 64;

/// Most ticks a packet may be ahead of the newest one a [`Remote`] applied (ten minutes at
/// 60 Hz): further ahead, it is refused as forged or corrupt, so one bad packet cannot make every
/// later real one look stale.
pub const MAX_TICKS_AHEAD: u64 = 36_000;

/// The sending side: one snapshot per network tick, a delta against the latest acknowledged one.
#[derive(Debug, Default)]
pub struct Authority {
    sent: Vec<NetState>,
    acked: Option<u64>,
    scratch: NetState,
}

impl Authority {
    /// Captures `player` and encodes it into `out` (a delta when a baseline was acknowledged).
    pub fn snapshot(&mut self, player: &mut AnimationGraphPlayer, out: &mut Vec<u8>) {
        player.capture_net(&mut self.scratch);
        let baseline = self.acked.and_then(|t| self.sent.iter().find(|s| s.tick == t));
        encode(&self.scratch, baseline, out);
        if self.sent.len() >= HISTORY {
            // The oldest entry's storage takes the new state: once the history is full (and its
            // entries have grown to the graph's deepest interruption), snapshots allocate
            // nothing beyond what `out` needs.
            self.sent.rotate_left(1);
            self.sent.last_mut().expect("full").copy_from(&self.scratch);
        } else {
            self.sent.push(self.scratch.clone());
        }
    }

    /// The remote applied the snapshot of `tick`: later snapshots may be deltas against it.
    pub fn ack(&mut self, tick: u64) {
        if self.acked.is_none_or(|a| tick > a) && self.sent.iter().any(|s| s.tick == tick) {
            self.acked = Some(tick);
        }
    }
}

/// What [`Remote::receive`] did with a packet.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Received {
    /// Applied; acknowledge this tick to the authority.
    Applied(u64),
    /// Older than (or the same as) what was already applied: ignored.
    Stale(u64),
}

/// The receiving side: applies newer snapshots to a player, ignores stale ones.
#[derive(Debug, Default)]
pub struct Remote {
    received: Vec<NetState>,
    applied: Option<u64>,
    /// Packets ignored as duplicates or late.
    pub stale: u64,
    /// Deltas whose baseline was missing.
    pub missing_baseline: u64,
}

impl Remote {
    /// Decodes and, when newer than anything applied, applies a packet to `player`.
    pub fn receive(
        &mut self,
        bytes: &[u8],
        player: &mut AnimationGraphPlayer,
        delta: f32,
    ) -> Result<Received, NetError> {
        let (tick, base) = peek(bytes)?;
        if self.applied.is_some_and(|a| tick <= a) {
            self.stale += 1;
            return Ok(Received::Stale(tick));
        }
        if self.applied.is_some_and(|a| tick - a > MAX_TICKS_AHEAD) {
            return Err(NetError::Malformed("tick implausibly far ahead of the last applied one"));
        }
        let baseline = base.and_then(|b| self.received.iter().find(|s| s.tick == b));
        let state = match decode(bytes, baseline) {
            Ok(s) => s,
            Err(e @ NetError::MissingBaseline(_)) => {
                self.missing_baseline += 1;
                return Err(e);
            }
            Err(e) => return Err(e),
        };
        player.apply_net(&state, delta)?;
        self.applied = Some(tick);
        if self.received.len() >= HISTORY {
            self.received.remove(0);
        }
        self.received.push(state);
        Ok(Received::Applied(tick))
    }

    /// The newest applied tick.
    pub fn applied_tick(&self) -> Option<u64> {
        self.applied
    }
}

/// Interpolates float parameters between the two latest snapshots, for remotes that render
/// between network ticks.
#[derive(Clone, Debug, Default)]
pub struct FloatInterpolator {
    from: (u64, Vec<f32>),
    to: (u64, Vec<f32>),
}

impl FloatInterpolator {
    /// Adds a snapshot's floats (older ticks than the latest are ignored).
    pub fn push(&mut self, tick: u64, floats: &[f32]) {
        if !self.to.1.is_empty() && tick <= self.to.0 {
            return;
        }
        std::mem::swap(&mut self.from, &mut self.to);
        self.to.0 = tick;
        self.to.1.clear();
        self.to.1.extend_from_slice(floats);
        if self.from.1.len() != floats.len() {
            self.from = self.to.clone();
        }
    }

    /// The floats at a (fractional) tick: linear between the two snapshots, held outside them.
    pub fn at(&self, tick: f64, out: &mut [f32]) {
        let (a, b) = (&self.from, &self.to);
        let span = (b.0 - a.0) as f64;
        let u = if span > 0.0 { ((tick - a.0 as f64) / span).clamp(0.0, 1.0) as f32 } else { 1.0 };
        for (i, o) in out.iter_mut().enumerate().take(b.1.len()) {
            *o = a.1[i] + (b.1[i] - a.1[i]) * u;
        }
    }
}
