//! Lint: graphs that are valid but do not do what their author meant.
//!
//! [`graph::validate`](crate::graph::validate) refuses graphs that cannot run; lint finds the
//! ones that run wrong. Each finding has a stable code, names the place by model path (the CLI
//! maps it to the resource id and line) and says how to fix it.
//!
//! | code | name | severity | finds |
//! |---|---|---|---|
//! | L001 | `unreachable-state` | warning | a state no path reaches from its machine's entry (counting `*` transitions, and a sub-machine's way out only when it can reach `<exit>`) |
//! | L002 | `contradictory-conditions` | warning | a transition whose conditions cannot all hold (`speed > 5` and `speed < 2`, `grounded` true and false) |
//! | L003 | `impossible-condition` | warning | a condition on a value its parameter can never hold (an Int equal to 2.5; a parameterless False) |
//! | L004 | `shadowed-transition` | warning | a transition that can never fire because one that ranks before it, from the same state (or `*`), needs a subset of its conditions and no later exit time |
//! | L005 | `parameter-never-read` | warning | a bool, int or float nothing in the graph reads |
//! | L006 | `trigger-never-tested` | warning | a trigger no condition tests |
//! | L007 | `any-state-every-frame` | error | a `*` transition without conditions or exit time: it fires every frame |
//! | L008 | `missing-clip` | error | (with a skeleton) a clip the skeleton does not have |
//! | L009 | `missing-mask-bone` | warning | (with a skeleton) a mask bone the skeleton does not have |
//! | L010 | `degenerate-blend-triangle` | warning | a 2D blend space triangle so flat its weights jump |
//! | L011 | `exit-time-before-first-time` | warning | an `ExitTime` on a looping clip state below the earliest normalised time the state can have (every way in starts later, at its `Offset`), so it gates nothing |
//! | L012 | `window-outside-time` | warning | a window starting below 0, or reaching past 1 on a looping state (time within a loop stays in 0..1; a one-shot may keep a window open past 1 while it holds its last frame) |
//! | L013 | `inertial-without-duration` | warning | a `Blend: Inertial` transition with `Duration` 0: the target pops in with nothing to decay over |
//! | L014 | `markers-without-markers` | warning | (with a skeleton) a blend space with `SyncMarkers` none of whose clips has markers (it runs as `SyncTime`), or a `Sync: Markers` transition from or to a clip state whose clip has none (it starts at `Offset`) |

use std::collections::{BTreeSet, HashMap, HashSet};

use crate::finding::{Code, Finding, LintCode};
use crate::graph::blend_space::Triangulation2D;
use crate::graph::{
    ANY_STATE, AnimationGraph, ConditionOp, EXIT_STATE, GraphCondition, GraphMachine, GraphState,
    GraphTransition, ParameterType, Severity, StateKind, TransitionBlend, TransitionSync,
};

/// Smallest triangle angle (degrees) a 2D blend space may have before L010 warns.
pub const MIN_TRIANGLE_DEGREES: f32 = 5.0;

/// Every lint code: (code, name, one line), in id order (the same as [`LintCode::ALL`]).
pub const CODES: [(&str, &str, &str); LintCode::ALL.len()] = {
    let mut codes = [("", "", ""); LintCode::ALL.len()];
    let mut i = 0;
    while i < LintCode::ALL.len() {
        let c = LintCode::ALL[i];
        codes[i] = (c.id(), c.name(), c.summary());
        i += 1;
    }
    codes
};

/// What lint knows of the skeleton a graph will drive.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct SkeletonFacts {
    /// Clip names.
    pub clips: Vec<String>,
    /// Bone or joint names.
    pub bones: Vec<String>,
    /// The clips that have sync markers.
    pub marked_clips: Vec<String>,
}

/// One finding of lint: a [`Finding`] with a [`Code::Lint`] code, the model path, a subject, a
/// message and a fix.
pub type LintFinding = Finding;

fn finding(code: LintCode, path: String, subject: String, message: String, fix: String) -> LintFinding {
    let severity = match code {
        LintCode::AnyStateEveryFrame | LintCode::MissingClip => Severity::Error,
        _ => Severity::Warning,
    };
    Finding { subject, fix, ..Finding::new(severity, Code::Lint(code), path, message) }
}

/// Lints a graph (validate it first: lint assumes names resolve). With `skeleton`, clips and
/// mask bones are checked against it too.
pub fn lint(graph: &AnimationGraph, skeleton: Option<&SkeletonFacts>) -> Vec<LintFinding> {
    let mut out = Vec::new();
    parameters(graph, &mut out);
    // Names looked up in one step each, so lint stays near-linear in the graph's size.
    let mut kinds = HashMap::new();
    for p in &graph.parameters {
        kinds.entry(p.name.as_str()).or_insert(p.kind);
    }
    let facts = skeleton.map(|s| Facts {
        all: s,
        clips: s.clips.iter().map(String::as_str).collect(),
        bones: s.bones.iter().map(String::as_str).collect(),
        marked: s.marked_clips.iter().map(String::as_str).collect(),
    });
    let lint = Lint { kinds, skeleton: facts.as_ref() };
    for (l, layer) in graph.layers.iter().enumerate() {
        let path = format!("Layers[{l}].Machine");
        let place = layer.name.clone();
        machine(&lint, &layer.machine, &path, &place, &mut out);
        if let (Some(s), Some(mask)) = (&facts, &layer.mask) {
            let s_bones = &s.all.bones;
            for (b, bone) in mask.bones.iter().enumerate() {
                if !s.bones.contains(bone.as_str()) {
                    out.push(finding(
                        LintCode::MissingMaskBone,
                        format!("Layers[{l}].Mask.Bones[{b}]"),
                        format!("mask of layer {}", layer.name),
                        format!("the skeleton has no bone \"{bone}\"{}", nearest(bone, s_bones)),
                        "rename it to one of the skeleton's bones, or remove it (a backend ignores it)"
                            .into(),
                    ));
                }
            }
        }
    }
    out
}

/// What lint looks names up in, made once per call.
struct Lint<'a> {
    kinds: HashMap<&'a str, ParameterType>,
    skeleton: Option<&'a Facts<'a>>,
}

struct Facts<'a> {
    all: &'a SkeletonFacts,
    clips: HashSet<&'a str>,
    bones: HashSet<&'a str>,
    marked: HashSet<&'a str>,
}

/// One machine's names as numbers: each state's index by name (the first of duplicates),
/// transitions grouped by source, and the transitions into each state.
struct MachineIndex<'a> {
    state: HashMap<&'a str, usize>,
    /// Per state: indices of the transitions leaving it, in list order.
    from: Vec<Vec<usize>>,
    /// Per state: indices of the transitions into it.
    into: Vec<Vec<usize>>,
    /// Indices of the `*` transitions, in list order.
    any: Vec<usize>,
}

impl<'a> MachineIndex<'a> {
    fn new(m: &'a GraphMachine) -> Self {
        let mut state = HashMap::new();
        for (i, s) in m.states.iter().enumerate() {
            state.entry(s.name.as_str()).or_insert(i);
        }
        let mut from = vec![Vec::new(); m.states.len()];
        let mut into = vec![Vec::new(); m.states.len()];
        let mut any = Vec::new();
        for (i, t) in m.transitions.iter().enumerate() {
            if t.from == ANY_STATE {
                any.push(i);
            } else if let Some(&s) = state.get(t.from.as_str()) {
                from[s].push(i);
            }
            if let Some(&s) = state.get(t.to.as_str()) {
                into[s].push(i);
            }
        }
        MachineIndex { state, from, into, any }
    }

    fn index(&self, name: &str) -> Option<usize> {
        self.state.get(name).copied()
    }
}

fn nearest(name: &str, options: &[String]) -> String {
    let lower = name.to_lowercase();
    let close: Vec<&String> = options
        .iter()
        .filter(|o| {
            let o = o.to_lowercase();
            o.contains(&lower) || lower.contains(&o) || edit_distance(&o, &lower) <= 2
        })
        .take(3)
        .collect();
    if close.is_empty() {
        String::new()
    } else {
        format!(
            " (did you mean {}?)",
            close.iter().map(|c| format!("\"{c}\"")).collect::<Vec<_>>().join(", ")
        )
    }
}

fn edit_distance(a: &str, b: &str) -> usize {
    let (a, b): (Vec<char>, Vec<char>) = (a.chars().collect(), b.chars().collect());
    let mut row: Vec<usize> = (0..=b.len()).collect();
    for i in 1..=a.len() {
        let mut previous = row[0];
        row[0] = i;
        for j in 1..=b.len() {
            let here = row[j];
            row[j] = (row[j] + 1).min(row[j - 1] + 1).min(previous + usize::from(a[i - 1] != b[j - 1]));
            previous = here;
        }
    }
    row[b.len()]
}

fn parameters(graph: &AnimationGraph, out: &mut Vec<LintFinding>) {
    let referenced = graph.referenced_parameters();
    for (i, p) in graph.parameters.iter().enumerate() {
        if referenced.contains(&p.name) {
            continue;
        }
        let path = format!("Parameters[{i}]");
        let subject = format!("parameter \"{}\"", p.name);
        if p.kind == ParameterType::Trigger {
            out.push(finding(
                LintCode::TriggerNeverTested,
                path,
                subject,
                "no transition tests this trigger, so firing it does nothing".into(),
                format!(
                    "add a condition \"{} Triggered\" to the transition it should start, or remove it",
                    p.name
                ),
            ));
        } else {
            out.push(finding(
                LintCode::ParameterNeverRead,
                path,
                subject,
                format!(
                    "nothing in the graph reads this {} (no condition, blend space, speed or layer weight)",
                    p.kind.as_str()
                ),
                "use it in a condition or blend space, or remove it".into(),
            ));
        }
    }
}

fn condition_text(c: &GraphCondition) -> String {
    c.summary()
}

/// The rank order of a machine's transitions: priority descending, then list order.
fn ranked(m: &GraphMachine) -> Vec<usize> {
    let mut order: Vec<usize> = (0..m.transitions.len()).collect();
    order.sort_by_key(|&i| (std::cmp::Reverse(m.transitions[i].priority), i));
    order
}

fn label(t: &GraphTransition) -> String {
    format!("{} -> {}", t.from, t.to)
}

fn machine(lint: &Lint, m: &GraphMachine, path: &str, place: &str, out: &mut Vec<LintFinding>) {
    let index = MachineIndex::new(m);
    // L001: reachability from the entry.
    let reachable = reachable_states(m, &index);
    for (i, s) in m.states.iter().enumerate() {
        if !reachable.contains(&i) {
            out.push(finding(
                LintCode::UnreachableState,
                format!("{path}.States[{i}]"),
                format!("state \"{}\" in {place}", s.name),
                format!(
                    "no path from the entry \"{}\" leads here (counting * transitions and sub-machine exits), so it never plays",
                    m.entry
                ),
                "add a transition into it, make it the entry, or delete it".into(),
            ));
        }
    }
    for (i, t) in m.transitions.iter().enumerate() {
        let tpath = format!("{path}.Transitions[{i}]");
        let subject = format!("transition {} in {place}", label(t));
        conditions(lint, t, &tpath, &subject, out);
        // L014: marker sync on a clip state without markers.
        if let (Some(sk), TransitionSync::Markers) = (lint.skeleton, t.sync) {
            for (end, name) in [("From", &t.from), ("To", &t.to)] {
                let clip = m.states.iter().find(|s| &s.name == name).and_then(|s| match &s.kind {
                    StateKind::Clip(c) => Some(c.clip.as_str()),
                    _ => None,
                });
                if let Some(clip) = clip.filter(|c| !sk.marked.contains(c)) {
                    out.push(finding(
                        LintCode::MarkersWithoutMarkers,
                        format!("{tpath}.Sync"),
                        subject.clone(),
                        format!("its {end} clip \"{clip}\" has no sync markers, so the target starts at Offset"),
                        "give the clip markers (2D: event keys; 3D: `animgraph markers`), or set Sync to None".into(),
                    ));
                }
            }
        }
        // L013: inertial with nothing to decay over.
        if t.blend == TransitionBlend::Inertial && t.duration == 0.0 {
            out.push(finding(
                LintCode::InertialWithoutDuration,
                format!("{tpath}.Duration"),
                subject.clone(),
                "the transition is Inertial but its Duration is 0, so the target's pose replaces the source's at once (a pop)".into(),
                "give it a Duration (0.2 to 0.4 s is typical), or use -1 for the graph's Mixes".into(),
            ));
        }
        // L007: `*` with nothing to wait for.
        if t.from == ANY_STATE && t.conditions.is_empty() && t.exit_time < 0.0 {
            out.push(finding(
                LintCode::AnyStateEveryFrame,
                tpath.clone(),
                subject.clone(),
                format!("it has no condition and no exit time, so it fires on every frame from every other state: nothing but \"{}\" can play for long", t.to),
                "give it a condition (a trigger, say) or an exit time".into(),
            ));
        }
    }
    shadowed(m, &index, path, place, out);
    exit_times(m, &index, path, place, out);
    for (i, s) in m.states.iter().enumerate() {
        let spath = format!("{path}.States[{i}]");
        windows(s, &spath, place, out);
        if let Some(sk) = lint.skeleton {
            let marker_clips = match &s.kind {
                StateKind::BlendSpace1D(b) if b.sync_markers => Some(&b.clips),
                StateKind::BlendSpace2D(b) if b.sync_markers => Some(&b.clips),
                _ => None,
            };
            if let Some(clips) = marker_clips.filter(|c| !c.iter().any(|c| sk.marked.contains(c.as_str()))) {
                out.push(finding(
                    LintCode::MarkersWithoutMarkers,
                    format!("{spath}.SyncMarkers"),
                    format!("state \"{}\" in {place}", s.name),
                    format!("none of its clips ({}) has sync markers, so SyncMarkers runs as SyncTime", clips.join(", ")),
                    "give the clips markers (2D: event keys; 3D: `animgraph markers`), or turn SyncMarkers off".into(),
                ));
            }
        }
        let clips: Vec<(String, &String)> = match &s.kind {
            StateKind::Clip(c) => vec![(format!("{spath}.Clip"), &c.clip)],
            StateKind::BlendSpace1D(b) => {
                b.clips.iter().enumerate().map(|(k, c)| (format!("{spath}.Clips[{k}]"), c)).collect()
            }
            StateKind::BlendSpace2D(b) => {
                degenerate_triangles(&b.positions, &b.clips, &spath, &s.name, place, out);
                b.clips.iter().enumerate().map(|(k, c)| (format!("{spath}.Clips[{k}]"), c)).collect()
            }
            StateKind::SubMachine(inner) => {
                if reachable.contains(&i) {
                    machine(lint, inner, &format!("{spath}.Machine"), &format!("{place} > {}", s.name), out);
                }
                Vec::new()
            }
        };
        if let Some(sk) = lint.skeleton {
            for (cpath, clip) in clips {
                if !clip.is_empty() && !sk.clips.contains(clip.as_str()) {
                    out.push(finding(
                        LintCode::MissingClip,
                        cpath,
                        format!("state \"{}\" in {place}", s.name),
                        format!(
                            "the skeleton has no clip \"{clip}\"{}, so this plays nothing",
                            nearest(clip, &sk.all.clips)
                        ),
                        "rename the clip to one the skeleton has, or map the name with a clip map".into(),
                    ));
                }
            }
        }
    }
}

/// Indices of the states reachable from the entry. A sub-machine state's own transitions only
/// count once its inner machine can reach `<exit>`.
fn reachable_states(m: &GraphMachine, index: &MachineIndex) -> BTreeSet<usize> {
    let mut reached = BTreeSet::new();
    let mut queue: Vec<usize> = index.index(&m.entry).into_iter().collect();
    // `*` transitions start from anywhere once anything plays.
    if !queue.is_empty() {
        for &t in &index.any {
            queue.extend(index.index(&m.transitions[t].to));
        }
    }
    while let Some(s) = queue.pop() {
        if !reached.insert(s) {
            continue;
        }
        let state = &m.states[s];
        if let StateKind::SubMachine(inner) = &state.kind {
            if !can_exit(inner) {
                continue;
            }
        }
        for &t in &index.from[s] {
            queue.extend(index.index(&m.transitions[t].to));
        }
    }
    reached
}

/// Whether a machine can hand back to its parent: an `<exit>` from a reachable state.
fn can_exit(m: &GraphMachine) -> bool {
    let index = MachineIndex::new(m);
    let reached = reachable_states(m, &index);
    m.transitions.iter().any(|t| {
        t.to == EXIT_STATE
            && (t.from == ANY_STATE || index.index(&t.from).is_some_and(|i| reached.contains(&i)))
    })
}

/// L002 and L003: conditions that cannot hold.
fn conditions(lint: &Lint, t: &GraphTransition, path: &str, subject: &str, out: &mut Vec<LintFinding>) {
    for (k, c) in t.conditions.iter().enumerate() {
        let kind = lint.kinds.get(c.parameter.as_str()).copied();
        let impossible = match (kind, c.op) {
            (None, ConditionOp::False) if c.parameter.is_empty() => {
                Some("False with no parameter is never true".to_string())
            }
            (Some(ParameterType::Int), ConditionOp::Equal) if c.value.fract() != 0.0 => {
                Some(format!("\"{}\" is an Int and never equals {}", c.parameter, c.value))
            }
            _ => None,
        };
        if let Some(why) = impossible {
            out.push(finding(
                LintCode::ImpossibleCondition,
                format!("{path}.Conditions[{k}]"),
                subject.to_string(),
                format!("{why}, so the transition never fires"),
                "test a value the parameter can hold".into(),
            ));
        }
    }
    // Group by parameter and intersect what each condition allows.
    let names: BTreeSet<&str> =
        t.conditions.iter().map(|c| c.parameter.as_str()).filter(|p| !p.is_empty()).collect();
    for name in names {
        let Some(kind) = lint.kinds.get(name).copied() else { continue };
        let these: Vec<&GraphCondition> = t.conditions.iter().filter(|c| c.parameter == name).collect();
        if these.len() < 2 {
            continue; // one condition alone is L003's business
        }
        let contradiction = match kind {
            ParameterType::Bool => {
                these.iter().any(|c| c.op == ConditionOp::True)
                    && these.iter().any(|c| c.op == ConditionOp::False)
            }
            ParameterType::Int | ParameterType::Float => !numeric_feasible(kind, &these),
            ParameterType::Trigger => false,
        };
        if contradiction {
            let text: Vec<String> = these.iter().map(|c| condition_text(c)).collect();
            out.push(finding(
                LintCode::ContradictoryConditions,
                path.to_string(),
                subject.to_string(),
                format!("{} can never all hold, so the transition never fires", text.join(" and ")),
                "fix the values (conditions of one transition must all hold; use two transitions for either-or)".into(),
            ));
        }
    }
}

/// Whether some value of the parameter satisfies every condition on it.
fn numeric_feasible(kind: ParameterType, conditions: &[&GraphCondition]) -> bool {
    let (mut lo, mut hi) = (f64::NEG_INFINITY, f64::INFINITY);
    let mut equal: Option<f64> = None;
    let mut not_equal = Vec::new();
    for c in conditions {
        let v = c.value as f64;
        match c.op {
            ConditionOp::Greater => lo = lo.max(v),
            ConditionOp::Less => hi = hi.min(v),
            ConditionOp::Equal => {
                if equal.is_some_and(|e| e != v) {
                    return false;
                }
                equal = Some(v);
            }
            ConditionOp::NotEqual => not_equal.push(v),
            _ => {}
        }
    }
    if let Some(e) = equal {
        return e > lo
            && e < hi
            && !not_equal.contains(&e)
            && (kind == ParameterType::Float || e.fract() == 0.0);
    }
    match kind {
        ParameterType::Int => {
            // The whole numbers strictly between lo and hi, minus the excluded ones.
            let first = if lo.is_finite() { lo.floor() + 1.0 } else { f64::NEG_INFINITY };
            let last = if hi.is_finite() { hi.ceil() - 1.0 } else { f64::INFINITY };
            if first > last {
                return false;
            }
            if first.is_finite() && last.is_finite() && last - first < 64.0 {
                let mut n = first;
                while n <= last {
                    if !not_equal.contains(&n) {
                        return true;
                    }
                    n += 1.0;
                }
                return false;
            }
            true
        }
        _ => lo < hi,
    }
}

fn same(a: &GraphCondition, b: &GraphCondition) -> bool {
    a.parameter == b.parameter && a.op == b.op && a.value == b.value
}

/// L004: a transition that an earlier-ranked one always beats.
fn shadowed(m: &GraphMachine, index: &MachineIndex, path: &str, place: &str, out: &mut Vec<LintFinding>) {
    let order = ranked(m);
    let mut rank = vec![0usize; order.len()];
    for (r, &t) in order.iter().enumerate() {
        rank[t] = r;
    }
    // Per source: its transitions' ranks, sorted (transitions from unknown states form no group).
    let by_rank = |list: &[usize]| {
        let mut r: Vec<usize> = list.iter().map(|&t| rank[t]).collect();
        r.sort_unstable();
        r
    };
    let any = by_rank(&index.any);
    let from: Vec<Vec<usize>> = index.from.iter().map(|l| by_rank(l)).collect();
    let empty = Vec::new();
    for (r, &later) in order.iter().enumerate() {
        let l = &m.transitions[later];
        // Earlier-ranked transitions from the same state, or `*` (which never fires into the
        // state it would leave); a `*` one is beaten only by earlier `*` ones. Merged by rank
        // so the first that shadows is named.
        let l_from = if l.from == ANY_STATE { None } else { Some(index.index(&l.from)) };
        let (own, anys): (&[usize], &[usize]) = match l_from {
            None => (&any, &[]),
            Some(Some(s)) => (&from[s], &any),
            Some(None) => (&empty, &any), // an unknown source: validation reports it
        };
        let own = &own[..own.partition_point(|&x| x < r)];
        let anys = &anys[..anys.partition_point(|&x| x < r)];
        let (mut i, mut j) = (0, 0);
        while i < own.len() || j < anys.len() {
            let take_own = j == anys.len() || (i < own.len() && own[i] < anys[j]);
            let earlier = if take_own {
                i += 1;
                order[own[i - 1]]
            } else {
                j += 1;
                order[anys[j - 1]]
            };
            let e = &m.transitions[earlier];
            if !take_own && e.to == l.from {
                continue; // `*` never fires into the state it would leave
            }
            let subset = e.conditions.iter().all(|c| l.conditions.iter().any(|d| same(c, d)));
            let gate = e.exit_time < 0.0 || (l.exit_time >= 0.0 && l.exit_time >= e.exit_time);
            if subset && gate {
                let needs = if e.conditions.is_empty() {
                    "no condition".to_string()
                } else {
                    e.conditions.iter().map(condition_text).collect::<Vec<_>>().join(", ")
                };
                let first = if label(e) == label(l) {
                    format!("the other {} (transition {} of the list)", label(e), earlier + 1)
                } else {
                    label(e)
                };
                out.push(finding(
                    LintCode::ShadowedTransition,
                    format!("{path}.Transitions[{later}]"),
                    format!("transition {} in {place}", label(l)),
                    format!(
                        "it never fires: {first} ranks first (priority {} vs {}{}) and needs only {needs}, so it always starts instead",
                        e.priority,
                        l.priority,
                        if e.priority == l.priority { ", earlier in the list" } else { "" }
                    ),
                    format!("give it a higher Priority than {}, or add a condition to {} that tells them apart", label(e), label(e)),
                ));
                break;
            }
        }
    }
}

/// L012: windows reaching outside the times their state can have.
fn windows(s: &GraphState, spath: &str, place: &str, out: &mut Vec<LintFinding>) {
    // A one-shot clip holds at >= 1, so only a looping one (or a blend space) wraps.
    let looping = match &s.kind {
        StateKind::Clip(c) => c.looping,
        _ => true,
    };
    for (w, window) in s.windows.iter().enumerate() {
        let problem = if window.start < 0.0 {
            Some(format!("it starts at {}, but a state's time never goes below 0", window.start))
        } else if looping && window.end > 1.0 {
            Some(format!(
                "it ends at {}, but \"{}\" loops and its time within a loop stays below 1, so the window never closes by time (only when the state is left)",
                window.end, s.name
            ))
        } else {
            None
        };
        if let Some(message) = problem {
            out.push(finding(
                LintCode::WindowOutsideTime,
                format!("{spath}.Windows[{w}]"),
                format!("window \"{}\" of state \"{}\" in {place}", window.name, s.name),
                message,
                "keep Start and End within 0..1 (normalised time of one loop)".into(),
            ));
        }
    }
}

/// L011: exit times below every time a looping clip state can start at.
fn exit_times(m: &GraphMachine, index: &MachineIndex, path: &str, place: &str, out: &mut Vec<LintFinding>) {
    for (i, t) in m.transitions.iter().enumerate() {
        if t.exit_time < 0.0 || t.from == ANY_STATE {
            continue;
        }
        let Some(s) = index.index(&t.from) else { continue };
        let state = &m.states[s];
        let StateKind::Clip(clip) = &state.kind else { continue };
        if !clip.looping {
            continue;
        }
        // The earliest normalised time the state starts at: 0 as the entry, else the least
        // Offset of the transitions into it.
        let mut first = if m.entry == state.name { Some(0.0f32) } else { None };
        for &into in &index.into[s] {
            let offset = m.transitions[into].offset;
            first = Some(first.map_or(offset, |f| f.min(offset)));
        }
        let Some(first) = first else { continue };
        if t.exit_time < first {
            out.push(finding(
                LintCode::ExitTimeBeforeFirstTime,
                format!("{path}.Transitions[{i}]"),
                format!("transition {} in {place}", label(t)),
                format!(
                    "ExitTime {} is below {first}, the earliest normalised time \"{}\" can have (every transition into it starts at Offset {first} or later), so it gates nothing",
                    t.exit_time, state.name
                ),
                format!("to wait for that point of the next loop use ExitTime {}, or remove the exit time", t.exit_time + 1.0),
            ));
        }
    }
}

/// L010: nearly flat triangles in a 2D blend space.
fn degenerate_triangles(
    points: &[[f32; 2]],
    clips: &[String],
    path: &str,
    state: &str,
    place: &str,
    out: &mut Vec<LintFinding>,
) {
    if points.len() < 3 {
        return;
    }
    let tri = Triangulation2D::new(points);
    for t in tri.triangles() {
        let p = t.map(|i| tri.points()[i as usize]);
        let angle = |a: [f32; 2], b: [f32; 2], c: [f32; 2]| {
            let (u, v) = ([b[0] - a[0], b[1] - a[1]], [c[0] - a[0], c[1] - a[1]]);
            let dot = u[0] * v[0] + u[1] * v[1];
            let len = (u[0].hypot(u[1]) * v[0].hypot(v[1])).max(1e-12);
            (dot / len).clamp(-1.0, 1.0).acos().to_degrees()
        };
        let smallest = angle(p[0], p[1], p[2]).min(angle(p[1], p[2], p[0])).min(angle(p[2], p[0], p[1]));
        if smallest < MIN_TRIANGLE_DEGREES {
            let names: Vec<String> = t
                .iter()
                .map(|&i| clips.get(i as usize).cloned().unwrap_or_else(|| format!("#{i}")))
                .collect();
            out.push(finding(
                LintCode::DegenerateBlendTriangle,
                format!("{path}.Positions"),
                format!("2D blend space \"{state}\" in {place}"),
                format!(
                    "the triangle {} is nearly flat (smallest angle {smallest:.1} degrees): weights jump as the blend point crosses it",
                    names.join(", ")
                ),
                "move one of its points away from the line through the other two".into(),
            ));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn feasibility_follows_the_parameter_type() {
        let c = |op, value| GraphCondition { parameter: "x".into(), op, value };
        let (gt, lt, eq, ne) =
            (ConditionOp::Greater, ConditionOp::Less, ConditionOp::Equal, ConditionOp::NotEqual);
        assert!(!numeric_feasible(ParameterType::Float, &[&c(gt, 5.0), &c(lt, 2.0)]));
        assert!(numeric_feasible(ParameterType::Float, &[&c(gt, 1.0), &c(lt, 1.5)]));
        assert!(
            !numeric_feasible(ParameterType::Int, &[&c(gt, 1.0), &c(lt, 2.0)]),
            "no whole number between 1 and 2"
        );
        assert!(numeric_feasible(ParameterType::Int, &[&c(gt, 1.0), &c(lt, 3.0)]));
        assert!(!numeric_feasible(ParameterType::Int, &[&c(gt, 1.0), &c(lt, 3.0), &c(ne, 2.0)]));
        assert!(!numeric_feasible(ParameterType::Int, &[&c(eq, 1.0), &c(eq, 2.0)]));
        assert!(!numeric_feasible(ParameterType::Int, &[&c(eq, 4.0), &c(gt, 4.0)]));
        assert!(numeric_feasible(ParameterType::Int, &[&c(ne, 4.0)]));
        assert_eq!(edit_distance("walk", "wlak"), 2);
    }
}
