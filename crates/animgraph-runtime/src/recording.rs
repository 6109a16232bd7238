//! Recordings: a player's frames (layers, parameters, signals, explanations, and the clip
//! samples that pose a skeleton) kept in a bounded ring, saved as JSON Lines and loaded back,
//! so a session can be scrubbed and attached to a bug report.
//!
//! The file's first line is a [`RecordingHeader`]; each further line is one [`RecordedFrame`].
//! `animgraph simulate --record` writes one; the editor records its preview or an attached game
//! and scrubs, saves and opens them.
//!
//! Both sides are bounded alike: a ring holds at most [`MAX_RECORDING_FRAMES`] frames and
//! [`MAX_RECORDING_BYTES`] of text (pushing past either drops the oldest frames), and the loader
//! refuses a file past either limit, so everything saved loads again.

use std::collections::VecDeque;
use std::path::Path;

use serde::{Deserialize, Serialize};

use crate::core::LayerInfo;
use crate::frame::PlayerFrame;
use crate::script::SampleRecord;

/// The `format` every recording's header carries.
pub const RECORDING_FORMAT: &str = "animgraph-recording";
/// The version this crate writes and reads.
pub const RECORDING_VERSION: u32 = 1;
/// Largest recording file read, and most bytes a [`Recording`] holds (as its text): a ring that
/// would grow past it drops its oldest frames, so whatever is saved loads.
pub const MAX_RECORDING_BYTES: u64 = 256 * 1024 * 1024;
/// Most frames a recording holds or a file may have (ten minutes at 60 Hz); [`Recording::new`]
/// clamps its capacity to it and [`Recording::parse`] refuses more.
pub const MAX_RECORDING_FRAMES: usize = 36_000;

/// Counts the bytes of a frame's text without keeping it.
#[derive(Default)]
struct ByteCount(u64);

impl std::io::Write for ByteCount {
    fn write(&mut self, bytes: &[u8]) -> std::io::Result<usize> {
        self.0 += bytes.len() as u64;
        Ok(bytes.len())
    }
    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

/// A value's JSON line length (newline included).
fn line_bytes(value: &impl Serialize) -> u64 {
    let mut count = ByteCount::default();
    let _ = serde_json::to_writer(&mut count, value);
    count.0 + 1
}

/// What a recording is of.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct RecordingHeader {
    /// [`RECORDING_FORMAT`].
    pub format: String,
    /// [`RECORDING_VERSION`].
    pub version: u32,
    /// The graph's uid (a tool checks it against the graph it shows).
    pub graph_uid: String,
    /// The graph's file, when known.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub graph_path: Option<String>,
    /// Where it was recorded (`editor preview`, `GBot 1 in animgraph arena`, `simulate`).
    #[serde(default)]
    pub source: String,
    /// Layer names, in order.
    pub layers: Vec<String>,
}

impl RecordingHeader {
    /// A header for a graph.
    pub fn new(
        graph_uid: &str,
        graph_path: Option<&str>,
        source: &str,
        layers: Vec<String>,
    ) -> RecordingHeader {
        RecordingHeader {
            format: RECORDING_FORMAT.into(),
            version: RECORDING_VERSION,
            graph_uid: graph_uid.into(),
            graph_path: graph_path.map(str::to_string),
            source: source.into(),
            layers,
        }
    }
}

pub use crate::frame::LayerInfoRecord;

/// One recorded frame.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct RecordedFrame {
    /// Seconds since the recording started (`f32`, like `simulate`'s `time`: its text form
    /// reads back exactly).
    pub time: f32,
    /// The player at the end of the frame (with its explanation when explain mode was on).
    #[serde(flatten)]
    pub frame: PlayerFrame,
    /// The clip samples it emitted (empty when recorded from a stream that has none).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub samples: Vec<SampleRecord>,
    /// The layer infos it emitted.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub layer_infos: Vec<LayerInfoRecord>,
}

impl RecordedFrame {
    /// The player's last frame with the samples it wrote to `buffer`, clips named by `names`.
    pub fn capture(
        player: &crate::AnimationGraphPlayer,
        buffer: &crate::SampleBuffer,
        names: &dyn crate::script::BackendNames,
        time: f32,
    ) -> RecordedFrame {
        RecordedFrame {
            time,
            frame: PlayerFrame::capture(player),
            samples: buffer.samples().iter().map(|s| SampleRecord::of(s, names)).collect(),
            layer_infos: buffer.layers().iter().map(LayerInfoRecord::from).collect(),
        }
    }

    /// Poses `backend` as this frame did: the recorded samples (clips resolved by name; unknown
    /// names are skipped) and layer infos go through `apply`. `scratch` is reused.
    pub fn pose(&self, backend: &mut dyn crate::PoseBackend, scratch: &mut Vec<crate::ClipSample>) {
        scratch.clear();
        for s in &self.samples {
            if let Some(clip) = backend.resolve_clip(&s.clip) {
                scratch.push(crate::ClipSample {
                    clip,
                    time: s.time,
                    prev_time: s.prev_time,
                    weight: s.weight,
                    layer: s.layer,
                    looped: s.looped,
                });
            }
        }
        let layers: Vec<LayerInfo> = self.layer_infos.iter().map(LayerInfo::from).collect();
        backend.apply(scratch, &layers);
    }

    /// Whether an inertial blend ran on any layer in this frame.
    pub fn inertial(&self) -> bool {
        self.layer_infos.iter().any(|l| l.inertial.is_some())
    }
}

/// Poses `backend` as it was at frame `index` of a recording (`frame(i)` gives frame `i`): a
/// pose inside an inertial blend depends on the frames before the blend started (the offset is
/// measured from them), so the frames are applied in order from two before the earliest
/// inertial blend still running at `index`; outside blends, `index` alone.
pub fn pose_at<'a>(
    frame: impl Fn(usize) -> Option<&'a RecordedFrame>,
    index: usize,
    backend: &mut dyn crate::PoseBackend,
) {
    let mut start = index;
    while start > 0 && frame(start).is_some_and(RecordedFrame::inertial) {
        start -= 1;
    }
    if start < index {
        // `start` has no blend: it and the frame before make the history the blend started from.
        start = start.saturating_sub(1);
    }
    let mut scratch = Vec::new();
    for i in start..=index {
        if let Some(f) = frame(i) {
            f.pose(backend, &mut scratch);
        }
    }
}

/// Why a recording did not load.
#[derive(Debug, thiserror::Error)]
pub enum RecordingError {
    /// The file could not be read or written.
    #[error("{0}")]
    Io(String),
    /// A line is not what a recording holds.
    #[error("line {line}: {message}")]
    Line {
        /// 1-based.
        line: usize,
        /// What is wrong.
        message: String,
    },
}

/// Frames in a ring of at most `capacity` frames and [`MAX_RECORDING_BYTES`] of text (the oldest
/// go first).
#[derive(Clone, Debug, PartialEq)]
pub struct Recording {
    /// What it is of.
    pub header: RecordingHeader,
    frames: VecDeque<RecordedFrame>,
    /// Each frame's line length, parallel to `frames`.
    sizes: VecDeque<u64>,
    /// The sum of `sizes`.
    bytes: u64,
    /// Most bytes the text may have (header included).
    byte_limit: u64,
    capacity: usize,
    /// Frames pushed out of the ring so far.
    pub dropped: u64,
}

impl Recording {
    /// An empty recording keeping the last `capacity` frames (at least one, at most
    /// [`MAX_RECORDING_FRAMES`]) within [`MAX_RECORDING_BYTES`].
    pub fn new(header: RecordingHeader, capacity: usize) -> Recording {
        Recording::with_byte_limit(header, capacity, MAX_RECORDING_BYTES)
    }

    /// [`new`](Self::new) with a smaller byte limit (never above [`MAX_RECORDING_BYTES`]).
    pub fn with_byte_limit(header: RecordingHeader, capacity: usize, byte_limit: u64) -> Recording {
        let capacity = capacity.clamp(1, MAX_RECORDING_FRAMES);
        Recording {
            header,
            frames: VecDeque::with_capacity(capacity.min(1 << 12)),
            sizes: VecDeque::with_capacity(capacity.min(1 << 12)),
            bytes: 0,
            byte_limit: byte_limit.min(MAX_RECORDING_BYTES),
            capacity,
            dropped: 0,
        }
    }

    /// Adds a frame, dropping the oldest while there are more than `capacity` frames or more
    /// text than the byte limit (a single frame larger than the limit is not kept at all).
    pub fn push(&mut self, frame: RecordedFrame) {
        let size = line_bytes(&frame);
        let room = self.byte_limit.saturating_sub(line_bytes(&self.header));
        if size > room {
            self.dropped += 1;
            return;
        }
        while self.frames.len() >= self.capacity || self.bytes + size > room {
            self.frames.pop_front();
            self.bytes -= self.sizes.pop_front().unwrap_or(0);
            self.dropped += 1;
        }
        self.frames.push_back(frame);
        self.sizes.push_back(size);
        self.bytes += size;
    }

    /// The length of [`to_text`](Self::to_text), which never exceeds the byte limit.
    pub fn text_bytes(&self) -> u64 {
        line_bytes(&self.header) + self.bytes
    }

    /// The frames, oldest first.
    pub fn frames(&self) -> &VecDeque<RecordedFrame> {
        &self.frames
    }

    /// How many frames it holds.
    pub fn len(&self) -> usize {
        self.frames.len()
    }

    /// Whether it holds none.
    pub fn is_empty(&self) -> bool {
        self.frames.is_empty()
    }

    /// The frame at `index` (0 is the oldest kept).
    pub fn get(&self, index: usize) -> Option<&RecordedFrame> {
        self.frames.get(index)
    }

    /// Most frames kept.
    pub fn capacity(&self) -> usize {
        self.capacity
    }

    /// Forgets every frame.
    pub fn clear(&mut self) {
        self.frames.clear();
        self.sizes.clear();
        self.bytes = 0;
        self.dropped = 0;
    }

    /// The JSON Lines text: the header, then one frame per line.
    pub fn to_text(&self) -> String {
        let mut out = serde_json::to_string(&self.header).expect("headers serialise");
        out.push('\n');
        for f in &self.frames {
            out.push_str(&serde_json::to_string(f).expect("frames serialise"));
            out.push('\n');
        }
        out
    }

    /// Saves atomically.
    pub fn save(&self, path: &Path) -> Result<(), RecordingError> {
        crate::mres::write_atomic(path, self.to_text().as_bytes())
            .map_err(|e| RecordingError::Io(e.to_string()))
    }

    /// Reads JSON Lines text; every frame it holds is kept.
    pub fn parse(text: &str) -> Result<Recording, RecordingError> {
        if let Err(e) = crate::json::check_f32_range(text) {
            return Err(RecordingError::Line { line: e.line, message: e.to_string() });
        }
        let mut lines = text.lines().enumerate().filter(|(_, l)| !l.trim().is_empty());
        let Some((_, first)) = lines.next() else {
            return Err(RecordingError::Line {
                line: 1,
                message: "the file is empty; a recording starts with its header line".into(),
            });
        };
        let header: RecordingHeader = serde_json::from_str(first).map_err(|e| RecordingError::Line {
            line: 1,
            message: format!("not a recording header ({e}); is this an animgraph recording?"),
        })?;
        if header.format != RECORDING_FORMAT {
            return Err(RecordingError::Line {
                line: 1,
                message: format!("format is \"{}\", not \"{RECORDING_FORMAT}\"", header.format),
            });
        }
        if header.version != RECORDING_VERSION {
            return Err(RecordingError::Line {
                line: 1,
                message: format!(
                    "version {} is not supported; this build reads version {RECORDING_VERSION}",
                    header.version
                ),
            });
        }
        if text.len() as u64 > MAX_RECORDING_BYTES {
            return Err(RecordingError::Line {
                line: 1,
                message: format!(
                    "the recording is {} bytes; recordings hold at most {MAX_RECORDING_BYTES}",
                    text.len()
                ),
            });
        }
        let mut recording = Recording::new(header, MAX_RECORDING_FRAMES);
        for (i, line) in lines {
            if recording.frames.len() == MAX_RECORDING_FRAMES {
                return Err(RecordingError::Line {
                    line: i + 1,
                    message: format!(
                        "more than {MAX_RECORDING_FRAMES} frames; recordings hold at most that many (cut the file at this line)"
                    ),
                });
            }
            let frame: RecordedFrame = serde_json::from_str(line).map_err(|e| RecordingError::Line {
                line: i + 1,
                message: format!("not a recorded frame: {e}"),
            })?;
            recording.push(frame);
        }
        recording.capacity = recording.frames.len().max(1);
        recording.dropped = 0;
        Ok(recording)
    }

    /// Loads a file written by [`save`](Self::save).
    pub fn load(path: &Path) -> Result<Recording, RecordingError> {
        let io = |e: std::io::Error| RecordingError::Io(format!("cannot read {}: {e}", path.display()));
        let size = std::fs::metadata(path).map_err(io)?.len();
        if size > MAX_RECORDING_BYTES {
            return Err(RecordingError::Io(format!(
                "{} is {size} bytes; the limit is {MAX_RECORDING_BYTES} bytes",
                path.display()
            )));
        }
        let text = crate::files::read_text(path, MAX_RECORDING_BYTES).map_err(io)?;
        Recording::parse(&text)
    }
}
