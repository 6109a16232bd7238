//! Sync markers: named times in a clip (a left foot plant `L`, a right one `R`) that transitions
//! and blend spaces line clips up by.
//!
//! A backend reports each clip's markers as `(name, seconds)` ([`PoseBackend::clip_markers`]);
//! bind turns them into normalised phases in `0..1` with interned names. Everything here works
//! on those: where a phase stands among its clip's markers, the matching phase in another clip
//! (a transition with `Sync: Markers`), and a blend space's marker-segment clock (`SyncMarkers`).
//!
//! # Rules
//!
//! | case | result |
//! |---|---|
//! | where a phase stands | the last marker at or before it (wrapping to the previous loop's last marker), and the fraction of the way to the next one |
//! | a transition with `Sync: Markers` | the target starts at its first marker named like the source's last passed marker, the same fraction of the way to the marker after it; when either clip has no markers, or the target lacks that name, at `Offset` |
//! | a blend space with `SyncMarkers` | its first clip with markers is the reference: the space's clock counts the reference's marker segments; every clip plays segment `i + k` (mod its marker count) where its marker `k` is named like the reference's first marker, at the same fraction; clips without markers (or without that name) follow the reference's normalised phase |
//! | how fast the segments go | `sum(weight_i / seconds of clip i's current segment)` segments per second, so the blend moves at its weighted average pace and every foot lands together |
//!
//! Marker times come from files a user wrote; [`parse_marker_list`] and [`parse_sidecar`]
//! check them (names present, times finite and within the clip, in order, at most
//! [`MAX_MARKERS`] a clip).
//!
//! [`PoseBackend::clip_markers`]: crate::PoseBackend::clip_markers

use std::collections::BTreeMap;

use serde_json::Value as Json;

/// Most markers a clip may have.
pub const MAX_MARKERS: usize = 1024;

/// Shortest marker segment, in seconds, a blend space's pace is computed with (two markers at
/// one time would otherwise ask for an infinite rate).
pub const MIN_SEGMENT_SECONDS: f64 = 1e-4;

/// A marker list `[["L", 0.0], ["R", 0.5], ...]` (seconds) for a clip `length` seconds long.
/// The error says what is wrong after a leading place (`[2]: ...`), for the caller to prefix.
pub fn parse_marker_list(value: &Json, length: f32) -> Result<Vec<(String, f32)>, String> {
    let list = value.as_array().ok_or(": must be an array of [name, seconds] pairs".to_string())?;
    if list.len() > MAX_MARKERS {
        return Err(format!(": {} markers, more than the {MAX_MARKERS} a clip may have", list.len()));
    }
    let mut out: Vec<(String, f32)> = Vec::with_capacity(list.len());
    for (i, entry) in list.iter().enumerate() {
        let pair = entry.as_array().filter(|p| p.len() == 2);
        let (Some(name), Some(time)) = (pair.and_then(|p| p[0].as_str()), pair.and_then(|p| p[1].as_f64()))
        else {
            return Err(format!("[{i}]: must be [name, seconds], like [\"L\", 0.25]"));
        };
        if name.is_empty() {
            return Err(format!("[{i}]: the name is empty; name the marker (\"L\", \"R\", ...)"));
        }
        let time = time as f32;
        if !time.is_finite() || time < 0.0 || time > length {
            return Err(format!("[{i}]: {time} s is outside the clip (0 to {length} s)"));
        }
        if out.last().is_some_and(|(_, t)| time < *t) {
            return Err(format!(
                "[{i}]: {time} s comes before the marker above it; list markers in time order"
            ));
        }
        out.push((name.to_string(), time));
    }
    Ok(out)
}

/// A glTF markers sidecar (`NAME.markers.json`): `{"clip": [["L", 0.0], ["R", 0.5]], ...}`,
/// each clip's list checked against its length by `length(clip)` (`None`: the file has no such
/// clip, an error naming the clips it has is the caller's: here it is reported by name).
pub fn parse_sidecar(
    text: &str,
    length: impl Fn(&str) -> Option<f32>,
) -> Result<BTreeMap<String, Vec<(String, f32)>>, String> {
    crate::json::check_f32_range(text).map_err(|e| e.to_string())?;
    let root: Json = serde_json::from_str(text).map_err(|e| format!("malformed JSON: {e}"))?;
    let object =
        root.as_object().ok_or("a markers file is a JSON object: clip name -> [[name, seconds], ...]")?;
    let mut out = BTreeMap::new();
    for (clip, list) in object {
        let Some(length) = length(clip) else {
            return Err(format!("\"{clip}\": no clip of that name in the model"));
        };
        out.insert(clip.clone(), parse_marker_list(list, length).map_err(|e| format!("\"{clip}\"{e}"))?);
    }
    Ok(out)
}

/// A marker of a bound clip: its interned name and its normalised phase in `0..1`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct Marker {
    pub name: u32,
    pub phase: f32,
}

/// Where `phase` (cumulative normalised time) stands among `markers` (sorted by phase):
/// `(index of the last marker at or before it, its phase, the next marker's phase)` with the
/// phases on the same cycle as `phase` (the previous loop's last marker before the first one).
/// `None` without markers.
fn segment_at(markers: &[Marker], phase: f64) -> Option<(usize, f64, f64)> {
    let n = markers.len();
    if n == 0 {
        return None;
    }
    let cycle = phase.floor();
    let p = phase - cycle;
    let k = markers.partition_point(|m| m.phase as f64 <= p);
    let (i, shift) = if k == 0 { (n - 1, -1.0) } else { (k - 1, 0.0) };
    let start = markers[i].phase as f64 + shift;
    let end = if i + 1 < n { markers[i + 1].phase as f64 } else { markers[0].phase as f64 + 1.0 } + shift;
    Some((i, cycle + start, cycle + end))
}

fn fraction(at: f64, start: f64, end: f64) -> f64 {
    if end > start { ((at - start) / (end - start)).clamp(0.0, 1.0) } else { 0.0 }
}

/// A transition with `Sync: Markers`: the normalised time (`0..1`) the target starts at, given the
/// source's markers and cumulative phase; `None` when there is nothing to match (see the
/// module's rules).
pub(crate) fn matching_phase(source: &[Marker], source_phase: f64, target: &[Marker]) -> Option<f32> {
    let (i, start, end) = segment_at(source, source_phase)?;
    let f = fraction(source_phase, start, end);
    let name = source[i].name;
    let j = target.iter().position(|m| m.name == name)?;
    let t_start = target[j].phase as f64;
    let t_end = if j + 1 < target.len() { target[j + 1].phase as f64 } else { target[0].phase as f64 + 1.0 };
    Some((t_start + f * (t_end - t_start)).rem_euclid(1.0) as f32)
}

/// A blend space clip's place in the reference's marker segments: its markers and the index of
/// its marker named like the reference's first (`None`: it follows the reference's phase).
#[derive(Clone, Copy, Debug)]
pub(crate) struct Follower<'a> {
    pub markers: &'a [Marker],
    pub align: Option<usize>,
}

/// The reference's segment position (cumulative: `cycles x markers + segment + fraction`) at its
/// cumulative `phase`.
pub(crate) fn segments_at(reference: &[Marker], phase: f64) -> f64 {
    let Some((i, start, end)) = segment_at(reference, phase) else { return phase };
    let n = reference.len() as f64;
    // The segment's cycle counts loops of the reference's first marker.
    let cycle = (start - reference[i].phase as f64).round();
    cycle * n + i as f64 + fraction(phase, start, end)
}

/// The clip's segment at the reference's segment position `u`, as cumulative phases
/// `(start, end)` (a clip without markers, or without the reference's first name, uses the
/// reference's segments).
fn segment_of(clip: Follower, reference: &[Marker], u: f64) -> Option<(f64, f64)> {
    let (markers, align) = match clip.align {
        Some(align) if !clip.markers.is_empty() => (clip.markers, align),
        _ => (reference, 0),
    };
    if markers.is_empty() {
        return None;
    }
    let g = u.floor() as i64 + align as i64;
    let n = markers.len() as i64;
    let segment = g.rem_euclid(n) as usize;
    let cycles = g.div_euclid(n) as f64;
    let start = markers[segment].phase as f64;
    let end = if segment + 1 < markers.len() {
        markers[segment + 1].phase as f64
    } else {
        markers[0].phase as f64 + 1.0
    };
    Some((cycles + start, cycles + end))
}

/// A clip's cumulative phase at the reference's segment position `u`.
pub(crate) fn phase_at(clip: Follower, reference: &[Marker], u: f64) -> f64 {
    match segment_of(clip, reference, u) {
        Some((start, end)) => start + (u - u.floor()) * (end - start),
        None => u,
    }
}

/// Segments per second a clip `length` seconds long moves through at position `u` (its current
/// segment's pace).
pub(crate) fn segment_rate(clip: Follower, reference: &[Marker], u: f64, length: f32) -> f64 {
    let (start, end) = segment_of(clip, reference, u).unwrap_or((0.0, 1.0));
    1.0 / ((end - start) * length as f64).max(MIN_SEGMENT_SECONDS)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn markers(list: &[(u32, f32)]) -> Vec<Marker> {
        list.iter().map(|&(name, phase)| Marker { name, phase }).collect()
    }

    const L: u32 = 0;
    const R: u32 = 1;

    #[test]
    fn a_phase_stands_after_its_last_passed_marker_wrapping_to_the_previous_loop() {
        let m = markers(&[(L, 0.2), (R, 0.7)]);
        let (i, start, end) = segment_at(&m, 0.45).unwrap();
        assert_eq!(i, 0);
        assert!((start - 0.2).abs() < 1e-6 && (end - 0.7).abs() < 1e-6, "{start} {end}");
        assert_eq!(segment_at(&m, 1.8).map(|s| s.0), Some(1));
        // Before the first marker: the previous loop's R, up to this loop's L.
        let (i, start, end) = segment_at(&m, 1.1).unwrap();
        assert_eq!(i, 1);
        assert!((start - 0.7).abs() < 1e-6 && (end - 1.2).abs() < 1e-6, "{start} {end}");
        assert_eq!(segment_at(&[], 0.5), None);
    }

    #[test]
    fn transitions_match_the_last_marker_and_the_fraction_to_the_next() {
        // Walk: L at 0, R at 0.5. Run: R at 0.1, L at 0.6.
        let walk = markers(&[(L, 0.0), (R, 0.5)]);
        let run = markers(&[(R, 0.1), (L, 0.6)]);
        // Walk at 0.25: half way from L to R; run's L (0.6) half way to R (1.1): 0.85.
        assert!((matching_phase(&walk, 0.25, &run).unwrap() - 0.85).abs() < 1e-6);
        // Walk at 0.75 (R, half way to L at 1.0): run's R (0.1) half way to L (0.6): 0.35.
        assert!((matching_phase(&walk, 3.75, &run).unwrap() - 0.35).abs() < 1e-6);
        assert_eq!(matching_phase(&walk, 0.3, &[]), None);
        assert_eq!(matching_phase(&[], 0.3, &run), None);
        assert_eq!(matching_phase(&walk, 0.3, &markers(&[(7, 0.5)])), None, "no marker named L");
    }

    #[test]
    fn followers_play_the_references_segment_at_the_same_fraction() {
        let walk = markers(&[(L, 0.0), (R, 0.5)]);
        let run = markers(&[(R, 0.1), (L, 0.6)]);
        let run_follows = Follower { markers: &run, align: Some(1) };
        let walk_itself = Follower { markers: &walk, align: Some(0) };
        for u in [0.0, 0.25, 1.0, 1.5, 2.0, 7.75] {
            let w = phase_at(walk_itself, &walk, u);
            let r = phase_at(run_follows, &walk, u);
            // Same segment, same fraction: L -> R in walk is L -> R in run.
            let (wi, ws, we) = segment_at(&walk, w).unwrap();
            let (ri, rs, re) = segment_at(&run, r).unwrap();
            assert_eq!(walk[wi].name, run[ri].name, "u {u}");
            assert!((fraction(w, ws, we) - fraction(r, rs, re)).abs() < 1e-9, "u {u}");
            // And the reference's own phase round-trips through its segment position.
            assert!((segments_at(&walk, w) - u).abs() < 1e-9, "u {u}: {}", segments_at(&walk, w));
        }
        // A clip without markers follows the reference's phase.
        assert_eq!(
            phase_at(Follower { markers: &[], align: None }, &walk, 1.5),
            phase_at(walk_itself, &walk, 1.5)
        );
    }

    #[test]
    fn marker_lists_are_checked() {
        let ok = parse_marker_list(&serde_json::json!([["L", 0.0], ["R", 0.5]]), 1.0).unwrap();
        assert_eq!(ok, vec![("L".to_string(), 0.0), ("R".to_string(), 0.5)]);
        for (bad, says) in [
            (serde_json::json!({"L": 0}), "array"),
            (serde_json::json!([["L"]]), "[0]: must be [name, seconds]"),
            (serde_json::json!([["", 0.1]]), "[0]: the name is empty"),
            (serde_json::json!([["L", 2.0]]), "[0]: 2 s is outside the clip (0 to 1 s)"),
            (serde_json::json!([["L", 0.5], ["R", 0.1]]), "[1]: 0.1 s comes before"),
        ] {
            let e = parse_marker_list(&bad, 1.0).unwrap_err();
            assert!(e.contains(says), "{e}");
        }
        let sidecar = parse_sidecar(r#"{"Walk": [["L", 0.1]]}"#, |c| (c == "Walk").then_some(1.0)).unwrap();
        assert_eq!(sidecar["Walk"], vec![("L".to_string(), 0.1)]);
        let e = parse_sidecar(r#"{"Run": []}"#, |c| (c == "Walk").then_some(1.0)).unwrap_err();
        assert!(e.contains("\"Run\": no clip"), "{e}");
    }
}
