//! Code tracks: one-off clips played from code, standalone or layered above a graph.
//!
//! Without a graph the tracks are the whole animation: track `N` is layer `N`. With a graph they
//! layer above it: track 0 is layer `graph.layers.len()`. Each track plays one clip at a time,
//! crossfading from the previous one; clips can be queued to start when the current one
//! completes or after a delay, and an *empty* clip mixes the track out.
//!
//! | call | result |
//! |---|---|
//! | [`set_clip`](AnimationTracks::set_clip) | the clip starts now, mixing from what plays (mix: its own, else [`set_mix`](AnimationTracks::set_mix) for the pair, else the default); the queue is cleared; a current entry that had not completed is `Interrupted` |
//! | [`queue_clip`](AnimationTracks::queue_clip), `delay > 0` | starts `delay` seconds after the entry before it started |
//! | `queue_clip`, `delay <= 0` | starts when the entry before it completes (its end, or its next loop completion if looping) minus the mix, plus `delay` (so with `delay = 0` the mix ends as it completes) |
//! | `queue_clip` on an empty track | starts after `delay` seconds (0: next advance) |
//! | [`set_empty`](AnimationTracks::set_empty) / [`queue_empty`](AnimationTracks::queue_empty) | the track mixes out to nothing over `mix` seconds |
//! | a mix starts while another runs | the current weights are frozen and mixed out, as in the graph player (at most [`MAX_TRACK_ENTRIES`] entries blend; the lightest is dropped beyond) |
//! | a one-shot reaches its end | `Complete`, then it holds its last frame until replaced |
//! | a looping clip wraps | `Complete` each loop |
//! | an entry's weight reaches 0 | `End` |
//!
//! Events are written into a fixed-capacity list read with [`events`](AnimationTracks::events)
//! after `advance`; when full, later events of the frame are dropped and counted.

use crate::blend::{BlendStack, Mix, Weighted, clip_timing, wrapped};
use crate::core::{ClipBlend, ClipId, ClipSample, LayerInfo, MaskId, PoseBackend, SampleBuffer};

/// Most entries that blend on one track at once (the fading ones plus the current one).
pub const MAX_TRACK_ENTRIES: usize = 4;
/// Most clips queued on one track.
pub const MAX_TRACK_QUEUE: usize = 8;

/// A clip to play on a track.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct TrackClip {
    /// The backend's clip.
    pub clip: ClipId,
    /// Its length in seconds.
    pub length: f32,
    /// Whether it loops.
    pub looping: bool,
    /// Playback rate (negative plays backwards). Default 1.
    pub speed: f32,
    /// Crossfade seconds from what plays; `None` uses the pair's mix or the default.
    pub mix: Option<f32>,
}

impl TrackClip {
    /// A clip with its length and looping from the backend, speed 1, the default mix.
    pub fn new(backend: &dyn PoseBackend, clip: ClipId) -> Self {
        TrackClip {
            clip,
            length: backend.clip_length(clip),
            looping: backend.clip_loops(clip),
            speed: 1.0,
            mix: None,
        }
    }

    /// With looping set.
    pub fn looping(self, looping: bool) -> Self {
        TrackClip { looping, ..self }
    }

    /// With an explicit mix duration.
    pub fn mix(self, seconds: f32) -> Self {
        TrackClip { mix: Some(seconds), ..self }
    }

    /// With a playback rate.
    pub fn speed(self, speed: f32) -> Self {
        TrackClip { speed, ..self }
    }
}

/// What happened on a track.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TrackEventKind {
    /// An entry started playing.
    Start,
    /// An entry was replaced before it completed.
    Interrupted,
    /// An entry reached its end (one-shot) or wrapped (looping).
    Complete,
    /// An entry stopped contributing (mixed out or cut).
    End,
}

impl TrackEventKind {
    /// The name used in `simulate` output (`TrackStart`, ...).
    pub fn name(self) -> &'static str {
        match self {
            TrackEventKind::Start => "TrackStart",
            TrackEventKind::Interrupted => "TrackInterrupted",
            TrackEventKind::Complete => "TrackComplete",
            TrackEventKind::End => "TrackEnd",
        }
    }
}

/// A track event.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TrackEvent {
    /// The track.
    pub track: u8,
    /// The entry's clip.
    pub clip: ClipId,
    /// What happened.
    pub kind: TrackEventKind,
}

/// Why a track call was refused.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum TrackError {
    /// No such track.
    #[error("track {0} does not exist; there are {1}")]
    NoTrack(usize, usize),
    /// The queue is full.
    #[error("track {0}'s queue is full ({MAX_TRACK_QUEUE} clips); wait or use set_clip")]
    QueueFull(usize),
    /// A NaN, infinite or negative value where it makes no sense.
    #[error("{0}")]
    BadValue(String),
}

#[derive(Clone, Copy, Debug, Default)]
struct Entry {
    /// `None`: the empty clip.
    clip: Option<TrackClip>,
    clock: f64,
    prev: f64,
    /// Seconds since the entry started.
    elapsed: f64,
    /// Frozen weight among fading entries.
    weight: f32,
    completed: bool,
}

#[derive(Clone, Copy, Debug)]
struct Queued {
    clip: Option<TrackClip>,
    delay: f32,
    mix: f32,
    /// When (in the current entry's elapsed seconds) it starts; set once it is next in line.
    due: Option<f64>,
}

impl Weighted for Entry {
    fn weight(&self) -> f32 {
        self.weight
    }

    fn set_weight(&mut self, weight: f32) {
        self.weight = weight;
    }
}

#[derive(Debug)]
struct Track {
    /// Entries mixing out and the newest one (the track's current entry), with the running mix.
    stack: BlendStack<Entry, ()>,
    queue: Vec<Queued>,
    /// Seconds the track has been empty (for queueing on an empty track).
    idle: f64,
    alpha: f32,
    blend: ClipBlend,
    mask: Option<MaskId>,
    event_threshold: f32,
}

/// A clone keeps the reserved capacities (a derived clone of a `Vec` would not).
impl Clone for Track {
    fn clone(&self) -> Self {
        let mut queue = Vec::with_capacity(MAX_TRACK_QUEUE);
        queue.extend_from_slice(&self.queue);
        Track { stack: self.stack, queue, ..*self }
    }
}

impl Track {
    /// The track's current entry: the newest one.
    fn current(&self) -> Option<&Entry> {
        self.stack.newest()
    }
}

/// Code tracks (see the [module docs](self)).
///
/// # Performance
/// Every list is sized when the tracks are made; `advance` and the track calls allocate nothing.
#[derive(Debug)]
pub struct AnimationTracks {
    tracks: Vec<Track>,
    first_layer: u8,
    mixes: Vec<(ClipId, ClipId, f32)>,
    default_mix: f32,
    events: Vec<TrackEvent>,
    event_capacity: usize,
    events_dropped: usize,
    /// The events are the last advance's: the next push or advance starts a new list.
    stale: bool,
}

impl Clone for AnimationTracks {
    fn clone(&self) -> Self {
        let mut events = Vec::with_capacity(self.event_capacity);
        events.extend_from_slice(&self.events);
        AnimationTracks {
            tracks: self.tracks.clone(),
            first_layer: self.first_layer,
            mixes: self.mixes.clone(),
            default_mix: self.default_mix,
            events,
            event_capacity: self.event_capacity,
            events_dropped: self.events_dropped,
            stale: self.stale,
        }
    }
}

impl AnimationTracks {
    /// `count` tracks writing layers `first_layer..first_layer + count` (0 when standalone; the
    /// graph player's `layer_count()` when above a graph).
    pub fn new(count: usize, first_layer: usize) -> Self {
        assert!(first_layer + count <= u8::MAX as usize + 1, "at most 256 layers in all");
        // Each track built on its own: a cloned empty Vec would lose its reserved capacity.
        let track = || Track {
            stack: BlendStack::new(MAX_TRACK_ENTRIES, None),
            queue: Vec::with_capacity(MAX_TRACK_QUEUE),
            idle: 0.0,
            alpha: 1.0,
            blend: ClipBlend::Replace,
            mask: None,
            event_threshold: 0.5,
        };
        let event_capacity = count * (2 * MAX_TRACK_ENTRIES + 4);
        AnimationTracks {
            tracks: (0..count).map(|_| track()).collect(),
            first_layer: first_layer as u8,
            mixes: Vec::new(),
            default_mix: 0.2,
            events: Vec::with_capacity(event_capacity),
            event_capacity,
            events_dropped: 0,
            stale: false,
        }
    }

    /// How many tracks.
    pub fn len(&self) -> usize {
        self.tracks.len()
    }

    /// Whether there are no tracks.
    pub fn is_empty(&self) -> bool {
        self.tracks.is_empty()
    }

    /// The layer of track 0.
    pub fn first_layer(&self) -> usize {
        self.first_layer as usize
    }

    /// Most samples one advance writes.
    pub fn sample_capacity(&self) -> usize {
        self.tracks.len() * MAX_TRACK_ENTRIES
    }

    fn track(&mut self, track: usize) -> Result<&mut Track, TrackError> {
        let count = self.tracks.len();
        self.tracks.get_mut(track).ok_or(TrackError::NoTrack(track, count))
    }

    fn check(value: f32, what: &str) -> Result<(), TrackError> {
        if value.is_finite() && value >= 0.0 {
            Ok(())
        } else {
            Err(TrackError::BadValue(format!("{what} must be a finite number of 0 or more, not {value}")))
        }
    }

    fn check_clip(clip: &TrackClip) -> Result<(), TrackError> {
        if !clip.length.is_finite() || clip.length <= 0.0 || !clip.speed.is_finite() {
            return Err(TrackError::BadValue(format!(
                "clip {} needs a length above 0 and a finite speed (got {} s at {})",
                clip.clip.0, clip.length, clip.speed
            )));
        }
        if let Some(m) = clip.mix {
            Self::check(m, "mix")?;
        }
        Ok(())
    }

    /// The crossfade for a pair (the most recent `set_mix` for it), else the default.
    pub fn mix_for(&self, from: Option<ClipId>, to: Option<ClipId>) -> f32 {
        match (from, to) {
            (Some(f), Some(t)) => {
                self.mixes.iter().rev().find(|m| m.0 == f && m.1 == t).map_or(self.default_mix, |m| m.2)
            }
            _ => self.default_mix,
        }
    }

    /// Sets the crossfade between two clips (like Spine's `SetMix`). Allocates when the pair is
    /// new: call at setup.
    pub fn set_mix(&mut self, from: ClipId, to: ClipId, seconds: f32) -> Result<(), TrackError> {
        Self::check(seconds, "mix")?;
        match self.mixes.iter_mut().find(|m| m.0 == from && m.1 == to) {
            Some(m) => m.2 = seconds,
            None => self.mixes.push((from, to, seconds)),
        }
        Ok(())
    }

    /// The crossfade used when no pair matches (default 0.2 s).
    pub fn set_default_mix(&mut self, seconds: f32) -> Result<(), TrackError> {
        Self::check(seconds, "mix")?;
        self.default_mix = seconds;
        Ok(())
    }

    /// A track's weight (its layer's weight), clamped to 0..1.
    pub fn set_alpha(&mut self, track: usize, alpha: f32) -> Result<(), TrackError> {
        if !alpha.is_finite() {
            return Err(TrackError::BadValue(format!("alpha must be finite, not {alpha}")));
        }
        self.track(track)?.alpha = alpha.clamp(0.0, 1.0);
        Ok(())
    }

    /// Replace or Additive.
    pub fn set_blend(&mut self, track: usize, blend: ClipBlend) -> Result<(), TrackError> {
        self.track(track)?.blend = blend;
        Ok(())
    }

    /// The track's bone mask (from [`PoseBackend::resolve_mask`]).
    pub fn set_mask(&mut self, track: usize, mask: Option<MaskId>) -> Result<(), TrackError> {
        self.track(track)?.mask = mask;
        Ok(())
    }

    /// Samples below this weight fire no clip events (default 0.5).
    pub fn set_event_threshold(&mut self, track: usize, threshold: f32) -> Result<(), TrackError> {
        Self::check(threshold, "event threshold")?;
        self.track(track)?.event_threshold = threshold;
        Ok(())
    }

    /// The clip playing on a track (not the ones mixing out).
    pub fn current(&self, track: usize) -> Option<ClipId> {
        self.tracks.get(track)?.current()?.clip.map(|c| c.clip)
    }

    /// Seconds the current entry has played.
    pub fn current_time(&self, track: usize) -> Option<f32> {
        self.tracks.get(track)?.current().map(|e| e.elapsed as f32)
    }

    /// How many clips wait in a track's queue.
    pub fn queued(&self, track: usize) -> usize {
        self.tracks.get(track).map_or(0, |t| t.queue.len())
    }

    /// Plays a clip now, mixing from what plays; clears the queue.
    pub fn set_clip(&mut self, track: usize, clip: TrackClip) -> Result<(), TrackError> {
        Self::check_clip(&clip)?;
        self.track(track)?.queue.clear();
        let mix = self.mix_to(track, Some(clip.clip), clip.mix);
        self.start(track, Some(clip), mix);
        Ok(())
    }

    /// Mixes the track out to nothing over `mix` seconds; clears the queue.
    pub fn set_empty(&mut self, track: usize, mix: f32) -> Result<(), TrackError> {
        Self::check(mix, "mix")?;
        self.track(track)?.queue.clear();
        self.start(track, None, mix);
        Ok(())
    }

    /// Queues a clip (see the module docs for when it starts).
    pub fn queue_clip(&mut self, track: usize, clip: TrackClip, delay: f32) -> Result<(), TrackError> {
        Self::check_clip(&clip)?;
        self.enqueue(track, Some(clip), delay, clip.mix)
    }

    /// Queues a mix out to nothing.
    pub fn queue_empty(&mut self, track: usize, delay: f32, mix: f32) -> Result<(), TrackError> {
        Self::check(mix, "mix")?;
        self.enqueue(track, None, delay, Some(mix))
    }

    fn enqueue(
        &mut self,
        track: usize,
        clip: Option<TrackClip>,
        delay: f32,
        mix: Option<f32>,
    ) -> Result<(), TrackError> {
        if !delay.is_finite() {
            return Err(TrackError::BadValue(format!("delay must be finite, not {delay}")));
        }
        let previous = {
            let t = self.track(track)?;
            if t.queue.len() >= MAX_TRACK_QUEUE {
                return Err(TrackError::QueueFull(track));
            }
            t.queue
                .last()
                .map_or(t.current().and_then(|c| c.clip.map(|c| c.clip)), |q| q.clip.map(|c| c.clip))
        };
        let mix = mix.unwrap_or_else(|| self.mix_for(previous, clip.map(|c| c.clip)));
        let t = &mut self.tracks[track];
        t.queue.push(Queued { clip, delay, mix, due: None });
        if t.queue.len() == 1 {
            t.queue[0].due = due(t.current(), &t.queue[0], t.idle);
        }
        Ok(())
    }

    fn mix_to(&self, track: usize, to: Option<ClipId>, explicit: Option<f32>) -> f32 {
        explicit.unwrap_or_else(|| {
            self.mix_for(self.tracks[track].current().and_then(|c| c.clip.map(|c| c.clip)), to)
        })
    }

    fn push_event(&mut self, track: usize, clip: Option<TrackClip>, kind: TrackEventKind) {
        let Some(clip) = clip else { return };
        if self.stale {
            self.events.clear();
            self.events_dropped = 0;
            self.stale = false;
        }
        if self.events.len() < self.event_capacity {
            self.events.push(TrackEvent { track: track as u8, clip: clip.clip, kind });
        } else {
            self.events_dropped += 1;
        }
    }

    /// Starts an entry on a track, freezing what plays into the blend stack's sources.
    fn start(&mut self, track: usize, clip: Option<TrackClip>, mix: f32) {
        let t = &self.tracks[track];
        let interrupted = t.current().filter(|c| !c.completed && c.clip.is_some()).map(|c| c.clip);
        if let Some(clip) = interrupted {
            self.push_event(track, clip, TrackEventKind::Interrupted);
        }
        let t = &mut self.tracks[track];
        let offset = clip.map_or(0.0, |c| if c.speed < 0.0 { c.length as f64 } else { 0.0 });
        let entry = Entry { clip, clock: offset, prev: offset, elapsed: 0.0, weight: 1.0, completed: false };
        // What stops contributing ends: everything on a cut, else the entries frozen at weight 0
        // and the one the stack drops to make room (the blend stack's one rule).
        let mut ended: [Option<TrackClip>; MAX_TRACK_ENTRIES + 1] = [None; MAX_TRACK_ENTRIES + 1];
        let mut ended_count = 0;
        if mix <= 0.0 {
            for (e, _) in t.stack.emitted() {
                ended[ended_count] = e.clip;
                ended_count += 1;
            }
            t.stack.cut(entry);
        } else {
            let dropped = t.stack.freeze(false);
            t.stack.retain_sources(|e| {
                let keep = e.weight > 0.0;
                if !keep {
                    ended[ended_count] = e.clip;
                    ended_count += 1;
                }
                keep
            });
            if let Some(d) = dropped {
                ended[ended_count] = d.clip;
                ended_count += 1;
            }
            // A mix from nothing fades the track in: its unfilled weight is the pose below.
            t.stack.begin_mix(
                entry,
                Mix { elapsed: 0.0, duration: mix, curve: Default::default(), inertial: false, info: () },
            );
        }
        t.idle = 0.0;
        if let Some(next) = t.queue.first() {
            let next = *next;
            t.queue[0].due = due(t.current(), &next, 0.0);
        }
        for e in ended.iter().take(ended_count) {
            self.push_event(track, *e, TrackEventKind::End);
        }
        self.push_event(track, clip, TrackEventKind::Start);
    }

    /// Events raised by track calls since the advance before last, and by the last advance:
    /// read them after `advance`.
    pub fn events(&self) -> &[TrackEvent] {
        &self.events
    }

    /// Events dropped since the last advance because the list was full.
    pub fn events_dropped(&self) -> usize {
        self.events_dropped
    }

    /// Advances every track by `delta` seconds and writes their layer infos and samples into
    /// `out`, after the layers it already holds. Standalone tracks (first layer 0) clear `out`
    /// first; above a graph, call it after the player's `advance` (which clears it).
    pub fn advance(&mut self, delta: f32, out: &mut SampleBuffer) {
        let delta = if delta.is_finite() && delta > 0.0 { delta as f64 } else { 0.0 };
        if self.first_layer == 0 {
            out.clear();
        }
        if self.stale {
            self.events.clear();
            self.events_dropped = 0;
            self.stale = false;
        }
        for track in 0..self.tracks.len() {
            self.advance_track(track, delta);
            self.emit(track, out);
        }
        self.stale = true;
    }

    fn advance_track(&mut self, track: usize, delta: f64) {
        // A queued entry whose time has come starts (measured before this frame's advance).
        let t = &self.tracks[track];
        if let Some(next) = t.queue.first().copied() {
            let now = t.current().map_or(t.idle, |c| c.elapsed);
            if next.due.is_some_and(|d| now >= d) {
                self.tracks[track].queue.remove(0);
                self.start(track, next.clip, next.mix);
            }
        }
        let mut completed: [Option<TrackClip>; MAX_TRACK_ENTRIES + 1] = [None; MAX_TRACK_ENTRIES + 1];
        let mut completed_count = 0;
        let t = &mut self.tracks[track];
        if t.current().is_none_or(|c| c.clip.is_none()) {
            t.idle += delta;
        }
        for entry in t.stack.entries_mut() {
            let Some(clip) = entry.clip else {
                entry.elapsed += delta;
                continue;
            };
            entry.prev = entry.clock;
            entry.clock += delta * clip.speed as f64;
            entry.elapsed += delta;
            let length = clip.length as f64;
            let reached_end = !clip.looping
                && !entry.completed
                && (entry.clock >= length || entry.clock <= 0.0 && clip.speed < 0.0);
            if (clip.looping && wrapped(entry.clock, entry.prev, length)) || reached_end {
                entry.completed = true;
                completed[completed_count.min(MAX_TRACK_ENTRIES)] = Some(clip);
                completed_count += 1;
            }
        }
        if let Some(mix) = t.stack.mix_mut() {
            mix.elapsed += delta as f32;
        }
        let finished = t.stack.mix().is_some_and(|m| m.elapsed >= m.duration);
        let mut ended: [Option<TrackClip>; MAX_TRACK_ENTRIES + 1] = [None; MAX_TRACK_ENTRIES + 1];
        let mut ended_count = 0;
        if finished {
            for f in t.stack.sources() {
                ended[ended_count] = f.clip;
                ended_count += 1;
            }
            t.stack.complete();
            if t.current().is_some_and(|c| c.clip.is_none()) {
                t.stack.clear();
            }
        }
        for c in completed.iter().take(completed_count.min(MAX_TRACK_ENTRIES + 1)) {
            self.push_event(track, *c, TrackEventKind::Complete);
        }
        for e in ended.iter().take(ended_count) {
            self.push_event(track, *e, TrackEventKind::End);
        }
    }

    fn emit(&self, track: usize, out: &mut SampleBuffer) {
        let t = &self.tracks[track];
        let layer = self.first_layer + track as u8;
        out.push_layer(LayerInfo {
            blend: t.blend,
            weight: t.alpha,
            mask: t.mask,
            event_threshold: t.event_threshold,
            inertial: None,
        });
        for (entry, weight) in t.stack.emitted() {
            let Some(clip) = entry.clip else { continue };
            if weight <= 0.0 {
                continue;
            }
            let (time, prev_time, looped) = clip_timing(entry.clock, entry.prev, clip.length, clip.looping);
            out.push_sample(ClipSample { clip: clip.clip, time, prev_time, weight, layer, looped });
        }
    }
}
/// When a queued entry starts, in the current entry's elapsed seconds (or the idle seconds of an
/// empty track).
fn due(current: Option<&Entry>, next: &Queued, idle: f64) -> Option<f64> {
    let Some(current) = current.filter(|c| c.clip.is_some()) else {
        return Some(idle + next.delay.max(0.0) as f64);
    };
    let clip = current.clip.expect("filtered");
    if next.delay > 0.0 {
        return Some(next.delay as f64);
    }
    if clip.speed == 0.0 {
        return None; // never completes
    }
    let period = clip.length as f64 / clip.speed.abs() as f64;
    let completion = if clip.looping { ((current.elapsed / period).floor() + 1.0) * period } else { period };
    Some((completion - next.mix as f64 + next.delay as f64).max(current.elapsed))
}
