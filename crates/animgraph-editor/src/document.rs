//! A document: one graph open in a tab, with its undo history, where the canvas looks, and
//! what is on disk. UI-free, so every edit is tested on its own.
//!
//! Every change goes through [`Document::edit_graph`] / [`Document::edit_machine`] (one undo
//! step each) or their `_coalesced` forms (one step for a whole drag or a run of typing in one
//! field), or through the named structural operations below, which keep references consistent
//! by calling the runtime's own rules (`GraphMachine::rename_state`, `remove_states`,
//! `AnimationGraph::rename_parameter`, `set_parameter_type`).

use std::path::{Path, PathBuf};

use animgraph_runtime::AnimationGraph;
use animgraph_runtime::graph::{
    ANY_STATE, GraphIssue, GraphLayer, GraphMachine, GraphParameter, GraphState, GraphTransition,
    ParameterType, StateKind, validate,
};
use animgraph_runtime::lint::{LintFinding, SkeletonFacts};
use animgraph_runtime::mres;
use animgraph_runtime::watch::FileWatch;

/// What is selected on the canvas.
#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub enum Selection {
    /// Nothing (the inspector shows the layer and graph settings).
    #[default]
    None,
    /// States of the shown machine (indices, ascending, at least one).
    States(Vec<usize>),
    /// A transition of the shown machine (index).
    Transition(usize),
}

impl Selection {
    /// One state.
    pub fn state(index: usize) -> Selection {
        Selection::States(vec![index])
    }

    /// The selected states (empty unless states are selected).
    pub fn states(&self) -> &[usize] {
        match self {
            Selection::States(s) => s,
            _ => &[],
        }
    }

    /// The state, when exactly one is selected.
    pub fn single_state(&self) -> Option<usize> {
        match self.states() {
            [one] => Some(*one),
            _ => None,
        }
    }

    /// Whether the state is selected.
    pub fn has_state(&self, index: usize) -> bool {
        self.states().contains(&index)
    }

    /// Adds the state to the selection, or removes it when it is already there.
    pub fn toggle_state(&mut self, index: usize) {
        let mut states = self.states().to_vec();
        match states.iter().position(|&s| s == index) {
            Some(at) => {
                states.remove(at);
            }
            None => states.push(index),
        }
        states.sort_unstable();
        *self = if states.is_empty() { Selection::None } else { Selection::States(states) };
    }
}

/// A graph being edited.
pub struct Document {
    /// Where it is saved (`None` until "Save as").
    pub path: Option<PathBuf>,
    /// The graph.
    pub graph: AnimationGraph,
    /// Earlier and undone graphs, each with its content id.
    undo: Vec<(AnimationGraph, u64)>,
    redo: Vec<(AnimationGraph, u64)>,
    /// Bumped by every edit, undo and redo (a cache key: never goes back).
    pub version: u64,
    /// Names the graph's content: every edit makes a new id, undo and redo bring back the id
    /// of the graph they restore, so undoing to the saved graph makes the document clean.
    content: u64,
    last_content: u64,
    saved_content: u64,
    /// The layer shown.
    pub layer: usize,
    /// Sub-machine states entered from the layer's machine (breadcrumb).
    pub nesting: Vec<usize>,
    /// The canvas selection.
    pub selection: Selection,
    /// The last load/save/edit message.
    pub status: String,
    /// The validator's findings and the version they were computed for.
    problems: Option<(u64, Vec<GraphIssue>)>,
    /// Lint's findings, for a version and a skeleton.
    lint: Option<(u64, Option<SkeletonFacts>, Vec<LintFinding>)>,
    /// The key of a coalescing edit in progress (a drag, typing in one field).
    coalescing: Option<u64>,
    /// The file's text as this document last loaded or saved it.
    disk_text: Option<String>,
    watch: Option<FileWatch>,
}

/// States copied from a machine with the transitions among them and the parameters they use;
/// pasted into any machine of any graph (the editor keeps one for all its tabs).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Clipboard {
    /// The states, as copied.
    pub states: Vec<GraphState>,
    /// Transitions whose both ends are among the states.
    pub transitions: Vec<GraphTransition>,
    /// The parameters the states and transitions name.
    pub parameters: Vec<GraphParameter>,
}

/// Most undo steps kept.
pub const UNDO_LIMIT: usize = 200;

/// How far a duplicate lands from its original, in graph units.
pub const DUPLICATE_OFFSET: [f32; 2] = [40.0, 40.0];

impl Document {
    /// Opens a `.mres` file. A graph with semantic errors opens (the problems panel lists them);
    /// a file whose structure cannot be read is refused with every error.
    pub fn open(path: PathBuf) -> Result<Document, String> {
        let text = mres::read_text(&path).map_err(|e| format!("{}: {e}", path.display()))?;
        let loaded = mres::load_str_editable(&text).map_err(|e| format!("{}: {e}", path.display()))?;
        let errors = loaded.warnings.iter().filter(|d| d.is_error()).count();
        let warnings = loaded.warnings.len() - errors;
        let status = match (errors, warnings) {
            (0, 0) => format!("opened {}", path.display()),
            (0, w) => format!("opened {} with {w} warning(s)", path.display()),
            (e, _) => format!("opened {}: it has {e} error(s), listed in Problems", path.display()),
        };
        let mut graph = loaded.graph;
        // A file written without editor positions (by hand, by another tool) would pile its
        // states up at the origin: lay those machines out (saved with the next save).
        let arranged = crate::layout::arrange_piled_up(graph.layers.iter_mut().map(|l| &mut l.machine));
        let status = if arranged > 0 {
            format!(
                "{status}; laid out {arranged} machine(s) whose states had no positions (all on one spot)"
            )
        } else {
            status
        };
        let mut doc = Document::new(graph, Some(path.clone()), status);
        doc.disk_text = Some(text);
        doc.watch = Some(FileWatch::new_default(path));
        Ok(doc)
    }

    /// A document for a graph.
    pub fn new(graph: AnimationGraph, path: Option<PathBuf>, status: String) -> Document {
        Document {
            path,
            graph,
            undo: Vec::new(),
            redo: Vec::new(),
            version: 0,
            content: 0,
            last_content: 0,
            saved_content: 0,
            layer: 0,
            nesting: Vec::new(),
            selection: Selection::None,
            status,
            problems: None,
            lint: None,
            coalescing: None,
            disk_text: None,
            watch: None,
        }
    }

    /// A new, unsaved graph: a fresh uid and one empty Base layer.
    pub fn untitled() -> Document {
        let graph = AnimationGraph {
            uid: mres::new_uid(),
            layers: vec![GraphLayer::default()],
            ..Default::default()
        };
        Document::new(graph, None, "new graph: right-click the canvas to add states".into())
    }

    /// The tab title (`*` when unsaved).
    pub fn title(&self) -> String {
        let name = self
            .path
            .as_ref()
            .and_then(|p| p.file_name())
            .map_or("untitled".into(), |n| n.to_string_lossy().into_owned());
        if self.dirty() { format!("{name} *") } else { name }
    }

    /// Unsaved edits exist.
    pub fn dirty(&self) -> bool {
        self.content != self.saved_content
    }

    /// The machine the canvas shows (the layer's, or a sub-machine entered from it).
    pub fn machine(&self) -> Option<&GraphMachine> {
        let mut machine = &self.graph.layers.get(self.layer)?.machine;
        for &i in &self.nesting {
            match &machine.states.get(i)?.kind {
                StateKind::SubMachine(inner) => machine = inner,
                _ => return None,
            }
        }
        Some(machine)
    }

    /// The `Outer/` path prefix of the states shown (empty on the layer's own machine), as the
    /// player names states.
    pub fn nesting_prefix(&self) -> String {
        let mut prefix = String::new();
        let Some(layer) = self.graph.layers.get(self.layer) else { return prefix };
        let mut machine = &layer.machine;
        for &i in &self.nesting {
            let Some(state) = machine.states.get(i) else { break };
            prefix.push_str(&state.name);
            prefix.push('/');
            match &state.kind {
                StateKind::SubMachine(inner) => machine = inner,
                _ => break,
            }
        }
        prefix
    }

    /// The model path of the shown machine (`Layers[0].Machine.States[2].Machine`), as the
    /// validator and the player name places.
    pub fn machine_path(&self) -> String {
        let mut path = format!("Layers[{}].Machine", self.layer);
        for i in &self.nesting {
            path.push_str(&format!(".States[{i}].Machine"));
        }
        path
    }

    /// The states (of every layer and sub-machine) whose name contains `text`, ignoring case:
    /// their display path (`Base/Air/Fall`) and model path (for [`reveal`](Self::reveal)), in
    /// layer and list order.
    pub fn find_states(&self, text: &str) -> Vec<(String, String)> {
        fn walk(m: &GraphMachine, shown: &str, model: &str, needle: &str, out: &mut Vec<(String, String)>) {
            for (i, s) in m.states.iter().enumerate() {
                let (shown, model) = (format!("{shown}/{}", s.name), format!("{model}.States[{i}]"));
                if s.name.to_lowercase().contains(needle) {
                    out.push((shown.clone(), model.clone()));
                }
                if let StateKind::SubMachine(inner) = &s.kind {
                    walk(inner, &shown, &format!("{model}.Machine"), needle, out);
                }
            }
        }
        let needle = text.trim().to_lowercase();
        let mut out = Vec::new();
        if needle.is_empty() {
            return out;
        }
        for (l, layer) in self.graph.layers.iter().enumerate() {
            walk(&layer.machine, &layer.name, &format!("Layers[{l}].Machine"), &needle, &mut out);
        }
        out
    }

    /// Shows the state or transition a model path (`Layers[0].Machine.States[1].Machine.
    /// Transitions[2].To`, as the validator reports) points into: its layer, the sub-machines on
    /// the way, and selects it. Returns false (changing nothing) when the path names no state or
    /// transition of this graph.
    pub fn reveal(&mut self, path: &str) -> bool {
        fn index(part: &str, name: &str) -> Option<usize> {
            part.strip_prefix(name)?.strip_prefix('[')?.strip_suffix(']')?.parse().ok()
        }
        let mut parts = path.split('.');
        let Some(layer) = parts.next().and_then(|p| index(p, "Layers")) else { return false };
        let mut nesting = Vec::new();
        let mut selection = Selection::None;
        for part in parts {
            if part == "Machine" {
                if let Some(i) = selection.single_state() {
                    nesting.push(i);
                }
                selection = Selection::None;
            } else if let Some(i) = index(part, "States") {
                selection = Selection::state(i);
            } else if let Some(i) = index(part, "Transitions") {
                selection = Selection::Transition(i);
                break;
            } else {
                break;
            }
        }
        let saved = (self.layer, std::mem::take(&mut self.nesting), self.selection.clone());
        self.layer = layer;
        self.nesting = nesting;
        let exists = self.machine().is_some_and(|m| match &selection {
            Selection::States(s) => s.iter().all(|&i| i < m.states.len()),
            Selection::Transition(i) => *i < m.transitions.len(),
            Selection::None => false,
        });
        if exists {
            self.selection = selection;
        } else {
            (self.layer, self.nesting, self.selection) = saved;
        }
        exists
    }

    /// The runtime validator's findings for the current graph, recomputed only after an edit.
    pub fn problems(&mut self) -> &[GraphIssue] {
        if self.problems.as_ref().is_none_or(|(v, _)| *v != self.version) {
            self.problems = Some((self.version, validate(&self.graph)));
        }
        self.problems.as_ref().map_or(&[], |(_, p)| p)
    }

    /// Lint's findings for the current graph (against the skeleton's facts when given),
    /// recomputed only after an edit or a change of skeleton. Only for graphs that validate.
    pub fn lint(&mut self, skeleton: Option<&SkeletonFacts>) -> &[LintFinding] {
        let fresh = self.lint.as_ref().is_some_and(|(v, s, _)| *v == self.version && s.as_ref() == skeleton);
        if !fresh {
            let valid = !animgraph_runtime::graph::has_errors(self.problems());
            let findings =
                if valid { animgraph_runtime::lint::lint(&self.graph, skeleton) } else { Vec::new() };
            self.lint = Some((self.version, skeleton.cloned(), findings));
        }
        self.lint.as_ref().map_or(&[], |(_, _, f)| f)
    }

    fn machine_of<'g>(
        graph: &'g mut AnimationGraph,
        layer: usize,
        nesting: &[usize],
    ) -> Option<&'g mut GraphMachine> {
        let mut machine = &mut graph.layers.get_mut(layer)?.machine;
        for &i in nesting {
            match &mut machine.states.get_mut(i)?.kind {
                StateKind::SubMachine(inner) => machine = inner,
                _ => return None,
            }
        }
        Some(machine)
    }

    // ----- history -------------------------------------------------------------------------

    /// Records the graph for undo before a change (call once per user action).
    pub fn checkpoint(&mut self) {
        self.coalescing = None;
        self.push_undo();
    }

    fn new_content(&mut self) {
        self.last_content += 1;
        self.content = self.last_content;
    }

    fn push_undo(&mut self) {
        self.undo.push((self.graph.clone(), self.content));
        self.new_content();
        if self.undo.len() > UNDO_LIMIT {
            self.undo.remove(0);
        }
        self.redo.clear();
        self.version += 1;
    }

    /// One undoable edit of the whole graph.
    pub fn edit_graph(&mut self, f: impl FnOnce(&mut AnimationGraph)) {
        self.checkpoint();
        f(&mut self.graph);
    }

    /// One undoable edit of the shown machine.
    pub fn edit_machine(&mut self, f: impl FnOnce(&mut GraphMachine)) {
        self.checkpoint();
        let (layer, nesting) = (self.layer, self.nesting.clone());
        if let Some(m) = Self::machine_of(&mut self.graph, layer, &nesting) {
            f(m);
        }
    }

    /// An edit that joins the previous one when it had the same `key` and no other edit or
    /// [`break_coalescing`](Self::break_coalescing) came between: a slider drag or a run of
    /// keystrokes in one field is one undo step.
    pub fn edit_graph_coalesced(&mut self, key: u64, f: impl FnOnce(&mut AnimationGraph)) {
        if self.coalescing != Some(key) {
            self.push_undo();
            self.coalescing = Some(key);
        } else {
            self.redo.clear();
            self.version += 1;
            self.new_content();
        }
        f(&mut self.graph);
    }

    /// [`edit_graph_coalesced`](Self::edit_graph_coalesced) on the shown machine.
    pub fn edit_machine_coalesced(&mut self, key: u64, f: impl FnOnce(&mut GraphMachine)) {
        let (layer, nesting) = (self.layer, self.nesting.clone());
        self.edit_graph_coalesced(key, |g| {
            if let Some(m) = Self::machine_of(g, layer, &nesting) {
                f(m);
            }
        });
    }

    /// Ends a coalescing edit (the UI calls this when no pointer button is held and no field
    /// has focus).
    pub fn break_coalescing(&mut self) {
        self.coalescing = None;
    }

    /// Undoes the last edit.
    pub fn undo(&mut self) {
        self.coalescing = None;
        if let Some((previous, content)) = self.undo.pop() {
            let current = std::mem::replace(&mut self.graph, previous);
            self.redo.push((current, std::mem::replace(&mut self.content, content)));
            // The last message may describe the edit just undone ("renamed state ...").
            self.status = "undone (Ctrl+Shift+Z redoes it)".into();
            self.version += 1;
            self.repair_view();
        }
    }

    /// Redoes the last undone edit.
    pub fn redo(&mut self) {
        self.coalescing = None;
        if let Some((next, content)) = self.redo.pop() {
            let current = std::mem::replace(&mut self.graph, next);
            self.undo.push((current, std::mem::replace(&mut self.content, content)));
            self.status = "redone".into();
            self.version += 1;
            self.repair_view();
        }
    }

    /// Whether there is something to undo / redo.
    pub fn can_undo(&self) -> (bool, bool) {
        (!self.undo.is_empty(), !self.redo.is_empty())
    }

    /// Keeps the layer, nesting and selection pointing at things that exist.
    pub fn repair_view(&mut self) {
        if self.layer >= self.graph.layers.len() {
            self.layer = self.graph.layers.len().saturating_sub(1);
            self.nesting.clear();
        }
        while !self.nesting.is_empty() && self.machine().is_none() {
            self.nesting.pop();
        }
        let (states, transitions) = self.machine().map_or((0, 0), |m| (m.states.len(), m.transitions.len()));
        self.selection = match std::mem::take(&mut self.selection) {
            Selection::States(mut s) => {
                s.retain(|&i| i < states);
                if s.is_empty() { Selection::None } else { Selection::States(s) }
            }
            Selection::Transition(i) if i < transitions => Selection::Transition(i),
            _ => Selection::None,
        };
    }

    // ----- files ---------------------------------------------------------------------------

    /// Saves atomically to the document's path. An invalid graph is saved too (work is never
    /// lost); the status then says how many errors it has.
    pub fn save(&mut self) -> Result<(), String> {
        let path = self.path.clone().ok_or("the graph has no file yet; use Save as")?;
        let text = mres::save_to_string(&self.graph);
        mres::write_atomic(&path, text.as_bytes()).map_err(|e| e.to_string())?;
        self.saved_content = self.content;
        self.disk_text = Some(text);
        let errors = self
            .problems()
            .iter()
            .filter(|p| p.severity == animgraph_runtime::graph::Severity::Error)
            .count();
        self.status = if errors == 0 {
            format!("saved {}", path.display())
        } else {
            format!(
                "saved {}, but it has {errors} error(s): games cannot load it until they are fixed (see Problems)",
                path.display()
            )
        };
        Ok(())
    }

    /// Saves to a new path, which the document then belongs to (and watches).
    pub fn save_as(&mut self, path: PathBuf) -> Result<(), String> {
        let previous = self.path.replace(path.clone());
        match self.save() {
            Ok(()) => {
                self.watch = Some(FileWatch::new_default(path));
                Ok(())
            }
            Err(e) => {
                self.path = previous;
                Err(e)
            }
        }
    }

    /// The file's new text when it changed on disk since this document loaded or saved it
    /// (another program, a version-control checkout). Cheap when nothing changed.
    pub fn changed_on_disk(&mut self) -> Option<String> {
        let watch = self.watch.as_mut()?;
        if !watch.changed() {
            return None;
        }
        watch.acknowledge();
        let text = mres::read_text(watch.path()).ok()?;
        (Some(&text) != self.disk_text.as_ref()).then_some(text)
    }

    /// Replaces the graph with the file's text `text` as one undoable step (so a reload can be
    /// undone back to the edits it replaced); the document is then clean.
    pub fn reload_from(&mut self, text: String) -> Result<(), String> {
        let path = self.path.clone().unwrap_or_default();
        let loaded = mres::load_str_editable(&text).map_err(|e| format!("{}: {e}", path.display()))?;
        self.edit_graph(|g| *g = loaded.graph);
        self.saved_content = self.content;
        self.disk_text = Some(text);
        self.repair_view();
        self.status =
            format!("reloaded {} (changed on disk; Ctrl+Z returns to the previous graph)", path.display());
        Ok(())
    }

    /// Identifies the graph's content (equal ids: the same graph, by edits and undo).
    pub fn content_id(&self) -> u64 {
        self.content
    }

    /// Marks the document as having unsaved edits (a recovered graph).
    pub fn mark_unsaved(&mut self) {
        self.saved_content = u64::MAX;
    }

    /// Marks `text` as what is on disk without reloading (the user kept their version).
    pub fn keep_over_disk(&mut self, text: String) {
        self.disk_text = Some(text);
        self.saved_content = u64::MAX; // dirty until saved over the disk's version
    }

    /// Whether the document's file is `path` (compared canonically when both exist).
    pub fn is_file(&self, path: &Path) -> bool {
        let Some(own) = &self.path else { return false };
        match (own.canonicalize(), path.canonicalize()) {
            (Ok(a), Ok(b)) => a == b,
            _ => own == path,
        }
    }

    // ----- states and transitions of the shown machine -------------------------------------

    /// Adds a state of `kind` at `position` (named `State`, `State 2`, ...; the first state of
    /// a machine becomes its entry) and selects it. Returns its index.
    pub fn add_state(&mut self, kind: StateKind, position: [f32; 2]) -> Option<usize> {
        let machine = self.machine()?;
        let name = machine.unique_state_name("State");
        let index = machine.states.len();
        self.edit_machine(|m| {
            let mut state = GraphState::new(name.clone(), kind);
            state.editor_position = position;
            if m.entry.is_empty() {
                m.entry = name;
            }
            m.states.push(state);
        });
        self.selection = Selection::state(index);
        Some(index)
    }

    /// Adds a transition `from -> to` (state names, `*` or `<exit>`) and selects it.
    pub fn connect(&mut self, from: &str, to: &str) -> Option<usize> {
        let index = self.machine()?.transitions.len();
        let transition = GraphTransition { from: from.to_string(), to: to.to_string(), ..Default::default() };
        self.edit_machine(|m| m.transitions.push(transition));
        self.selection = Selection::Transition(index);
        Some(index)
    }

    /// Removes the selected states (with their transitions) or the selected transition.
    pub fn delete_selection(&mut self) {
        match self.selection.clone() {
            Selection::States(states) => self.edit_machine(|m| m.remove_states(&states)),
            Selection::Transition(i) => self.edit_machine(|m| {
                if i < m.transitions.len() {
                    m.transitions.remove(i);
                }
            }),
            Selection::None => return,
        }
        self.selection = Selection::None;
    }

    /// Copies the selected states (unique names, offset by [`DUPLICATE_OFFSET`]) with the
    /// transitions among them, and selects the copies.
    pub fn duplicate_selection(&mut self) {
        if let Some(clip) = self.copy_selection() {
            self.paste(&clip);
        }
    }

    /// The selected states of the shown machine, the transitions among them and the
    /// parameters they use, for [`paste`](Self::paste) here or into another graph.
    pub fn copy_selection(&self) -> Option<Clipboard> {
        let machine = self.machine()?;
        let picked: Vec<usize> =
            self.selection.states().iter().copied().filter(|&i| i < machine.states.len()).collect();
        if picked.is_empty() {
            return None;
        }
        let states: Vec<GraphState> = picked.iter().map(|&i| machine.states[i].clone()).collect();
        let inside = |name: &str| states.iter().any(|s| s.name == name);
        let transitions: Vec<GraphTransition> =
            machine.transitions.iter().filter(|t| inside(&t.from) && inside(&t.to)).cloned().collect();
        // The parameters they name (conditions, blend spaces, speed parameters), found by the
        // runtime's own reference search on a graph of just these states.
        let probe = AnimationGraph {
            layers: vec![GraphLayer {
                machine: GraphMachine {
                    states: states.clone(),
                    transitions: transitions.clone(),
                    entry: String::new(),
                },
                ..Default::default()
            }],
            ..Default::default()
        };
        let parameters = self
            .graph
            .parameters
            .iter()
            .filter(|p| !probe.parameter_references(&p.name).is_empty())
            .cloned()
            .collect();
        Some(Clipboard { states, transitions, parameters })
    }

    /// Copies the selection, then deletes it (one undo step for the delete).
    pub fn cut_selection(&mut self) -> Option<Clipboard> {
        let clip = self.copy_selection()?;
        self.delete_selection();
        self.status = format!("cut {} state(s)", clip.states.len());
        Some(clip)
    }

    /// Adds copied states (and the transitions among them) to the shown machine as one undo
    /// step, selected. A name already taken gets " copy" (numbered when needed) and the
    /// pasted states shift by [`DUPLICATE_OFFSET`] so they do not hide the originals; the
    /// parameters they use that this graph lacks are added.
    pub fn paste(&mut self, clip: &Clipboard) {
        let Some(machine) = self.machine().cloned() else { return };
        if clip.states.is_empty() {
            return;
        }
        let clash = clip.states.iter().any(|s| machine.state(&s.name).is_some());
        let mut scratch = machine.clone();
        let mut renamed = Vec::new();
        for state in &clip.states {
            let mut copy = state.clone();
            if scratch.state(&copy.name).is_some() {
                copy.name = scratch.unique_state_name(&format!("{} copy", copy.name));
            }
            if clash {
                copy.editor_position = [
                    copy.editor_position[0] + DUPLICATE_OFFSET[0],
                    copy.editor_position[1] + DUPLICATE_OFFSET[1],
                ];
            }
            renamed.push((state.name.clone(), copy.name.clone()));
            scratch.states.push(copy);
        }
        let new_name = |old: &str| renamed.iter().find(|(o, _)| o == old).map(|(_, n)| n.clone());
        let copies: Vec<GraphTransition> = clip
            .transitions
            .iter()
            .filter_map(|t| {
                Some(GraphTransition { from: new_name(&t.from)?, to: new_name(&t.to)?, ..t.clone() })
            })
            .collect();
        let missing: Vec<GraphParameter> =
            clip.parameters.iter().filter(|p| self.graph.parameter(&p.name).is_none()).cloned().collect();
        let first = machine.states.len();
        let added: Vec<GraphState> = scratch.states.split_off(first);
        let count = added.len();
        let (layer, nesting) = (self.layer, self.nesting.clone());
        let new_parameters = missing.len();
        self.edit_graph(|g| {
            g.parameters.extend(missing);
            if let Some(m) = Self::machine_of(g, layer, &nesting) {
                m.states.extend(added);
                m.transitions.extend(copies);
            }
        });
        self.selection = Selection::States((first..first + count).collect());
        self.status = if new_parameters > 0 {
            format!("pasted {count} state(s) and the {new_parameters} parameter(s) they use")
        } else {
            format!("pasted {count} state(s)")
        };
    }

    /// Moves the selected states by `delta` graph units without an undo step (a drag records
    /// one [`checkpoint`](Self::checkpoint) when it starts).
    pub fn move_selected_untracked(&mut self, delta: [f32; 2]) {
        let states = self.selection.states().to_vec();
        let (layer, nesting) = (self.layer, self.nesting.clone());
        // Positions change neither validation nor playback, so the version stays.
        if let Some(m) = Self::machine_of(&mut self.graph, layer, &nesting) {
            for i in states {
                if let Some(s) = m.states.get_mut(i) {
                    s.editor_position = [s.editor_position[0] + delta[0], s.editor_position[1] + delta[1]];
                }
            }
        }
    }

    /// Lays the shown machine's states out in layers from its entry (one undo step); returns
    /// whether there was anything to arrange.
    pub fn arrange(&mut self) -> bool {
        let Some(machine) = self.machine() else { return false };
        if machine.states.is_empty() {
            return false;
        }
        let positions = crate::layout::layered(machine);
        self.edit_machine(|m| {
            for (state, position) in m.states.iter_mut().zip(positions) {
                state.editor_position = position;
            }
        });
        self.status = "arranged the states in layers from the entry (Ctrl+Z undoes it)".into();
        true
    }

    /// Adds a clip state named after `clip` (made unique), playing it, at `position`, selected
    /// (one undo step).
    pub fn add_clip_state(&mut self, clip: &str, position: [f32; 2]) -> Option<usize> {
        let machine = self.machine()?;
        let name = machine.unique_state_name(clip);
        let index = machine.states.len();
        let (clip, state_name) = (clip.to_string(), name.clone());
        self.edit_machine(|m| {
            let mut state = GraphState::new(
                state_name.clone(),
                StateKind::Clip(animgraph_runtime::graph::ClipState { clip, looping: true }),
            );
            state.editor_position = position;
            if m.entry.is_empty() {
                m.entry = state_name;
            }
            m.states.push(state);
        });
        self.selection = Selection::state(index);
        self.status = format!("added clip state {name}");
        Some(index)
    }

    /// Rounds the selected states' positions to multiples of `step` (no undo step: the end of
    /// a drag, whose start recorded one).
    pub fn snap_selected_untracked(&mut self, step: f32) {
        let states = self.selection.states().to_vec();
        let (layer, nesting) = (self.layer, self.nesting.clone());
        if let Some(m) = Self::machine_of(&mut self.graph, layer, &nesting) {
            for i in states {
                if let Some(s) = m.states.get_mut(i) {
                    s.editor_position = s.editor_position.map(|v| (v / step).round() * step);
                }
            }
        }
    }

    /// Selects every state of the shown machine.
    pub fn select_all(&mut self) {
        let n = self.machine().map_or(0, |m| m.states.len());
        self.selection = if n == 0 { Selection::None } else { Selection::States((0..n).collect()) };
    }

    /// Renames a state of the shown machine, keeping its transitions and the entry pointing at
    /// it. Refuses reserved, empty and taken names.
    pub fn rename_state(&mut self, index: usize, new: &str) -> Result<(), String> {
        let new = new.trim();
        let machine = self.machine().ok_or("no machine is shown")?;
        let old = machine.states.get(index).ok_or("no such state")?.name.clone();
        if old == new {
            return Ok(());
        }
        if new.is_empty()
            || new == ANY_STATE
            || new == animgraph_runtime::graph::EXIT_STATE
            || new.contains('/')
        {
            return Err(format!(
                "cannot rename `{old}` to `{new}`: empty, \"*\", \"<exit>\" and names with '/' are reserved"
            ));
        }
        if machine.state(new).is_some() {
            return Err(format!("cannot rename `{old}` to `{new}`: another state has that name"));
        }
        self.edit_machine(|m| {
            m.rename_state(index, new);
        });
        self.status = format!("renamed state `{old}` to `{new}`");
        Ok(())
    }

    // ----- layers --------------------------------------------------------------------------

    /// Adds an empty layer (`Layer 2`, ...) after the others and shows it.
    pub fn add_layer(&mut self) {
        let mut n = self.graph.layers.len() + 1;
        let mut name = format!("Layer {n}");
        while self.graph.layers.iter().any(|l| l.name == name) {
            n += 1;
            name = format!("Layer {n}");
        }
        self.edit_graph(|g| g.layers.push(GraphLayer { name, ..Default::default() }));
        self.show_layer(self.graph.layers.len() - 1);
    }

    /// Removes a layer (the last one cannot go: a graph needs a base layer).
    pub fn remove_layer(&mut self, index: usize) {
        if self.graph.layers.len() <= 1 || index >= self.graph.layers.len() {
            return;
        }
        self.edit_graph(|g| {
            g.layers.remove(index);
        });
        self.show_layer(index.min(self.graph.layers.len() - 1));
    }

    /// Moves a layer to position `to` (layer order is blend order) and keeps showing it.
    pub fn move_layer(&mut self, from: usize, to: usize) {
        let n = self.graph.layers.len();
        if from >= n || to >= n || from == to {
            return;
        }
        self.edit_graph(|g| {
            let layer = g.layers.remove(from);
            g.layers.insert(to, layer);
        });
        self.show_layer(to);
    }

    /// Shows a layer's machine (not an edit).
    pub fn show_layer(&mut self, index: usize) {
        self.layer = index;
        self.nesting.clear();
        self.selection = Selection::None;
    }

    // ----- parameters ----------------------------------------------------------------------

    /// Adds a parameter of `kind` named after it (`float`, `float2`, ...). Returns the name.
    pub fn add_parameter(&mut self, kind: ParameterType) -> String {
        let base = kind.as_str().to_lowercase();
        let mut name = base.clone();
        let mut n = 2;
        while self.graph.parameter(&name).is_some() {
            name = format!("{base}{n}");
            n += 1;
        }
        let parameter = GraphParameter { name: name.clone(), kind, default: 0.0, latch: false };
        self.edit_graph(|g| g.parameters.push(parameter));
        name
    }

    /// Removes a parameter; returns how many references to it now name nothing (the problems
    /// panel lists them; undo restores the parameter).
    pub fn remove_parameter(&mut self, index: usize) -> usize {
        let Some(name) = self.graph.parameters.get(index).map(|p| p.name.clone()) else { return 0 };
        let references = self.graph.parameter_references(&name).len();
        self.edit_graph(|g| {
            g.parameters.remove(index);
        });
        self.status = if references == 0 {
            format!("removed parameter `{name}`")
        } else {
            format!(
                "removed parameter `{name}`: {references} reference(s) now name nothing (see Problems; Ctrl+Z restores it)"
            )
        };
        references
    }

    /// Renames a parameter and every reference to it. Returns how many references changed.
    pub fn rename_parameter(&mut self, old: &str, new: &str) -> Result<usize, String> {
        let new = new.trim();
        if old == new {
            return Ok(0);
        }
        if new.is_empty() || self.graph.parameter(new).is_some() {
            return Err(format!("cannot rename `{old}` to `{new}`: the name is empty or taken"));
        }
        if self.graph.parameter(old).is_none() {
            return Err(format!("there is no parameter `{old}`"));
        }
        let mut changed = 0;
        self.edit_graph(|g| changed = g.rename_parameter(old, new));
        self.status = format!("renamed `{old}` to `{new}` and {changed} reference(s)");
        Ok(changed)
    }

    /// Changes a parameter's type (conditions on it are refitted by the runtime's rule).
    pub fn set_parameter_type(&mut self, name: &str, kind: ParameterType) {
        if self.graph.parameter(name).is_none_or(|p| p.kind == kind) {
            return;
        }
        let mut changed = None;
        self.edit_graph(|g| changed = g.set_parameter_type(name, kind));
        self.status = match changed {
            Some(0) | None => format!("`{name}` is now a {}", kind.as_str()),
            Some(n) => {
                format!("`{name}` is now a {}; {n} condition(s) got a fitting operator", kind.as_str())
            }
        };
    }

    /// Moves condition `condition` of transition `transition` by `by` rows (-1 up, 1 down).
    pub fn move_condition(&mut self, transition: usize, condition: usize, by: isize) {
        let Some(t) = self.machine().and_then(|m| m.transitions.get(transition)) else { return };
        let to = condition as isize + by;
        if condition >= t.conditions.len() || to < 0 || to as usize >= t.conditions.len() {
            return;
        }
        self.edit_machine(|m| m.transitions[transition].conditions.swap(condition, to as usize));
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use animgraph_runtime::graph::{
        BlendSpace1D, ClipState, ConditionOp, GraphCondition, GraphMixOverride, Severity,
    };

    fn asset(relative: &str) -> PathBuf {
        PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../..").join(relative)
    }

    fn gbot() -> Document {
        Document::open(asset("assets/characters/gbot/gbot.mres")).unwrap()
    }

    fn scratch_dir(name: &str) -> PathBuf {
        animgraph_test_support::scratch_dir(&format!("editor-doc-{name}"))
    }

    fn index_of(doc: &Document, name: &str) -> usize {
        doc.machine().unwrap().state_index(name).unwrap()
    }

    /// Every kind of edit the editor makes, as (name, edit).
    #[allow(clippy::type_complexity)]
    fn every_edit() -> Vec<(&'static str, Box<dyn Fn(&mut Document)>)> {
        vec![
            (
                "add clip state",
                Box::new(|d| {
                    d.add_state(StateKind::Clip(ClipState::default()), [10.0, 20.0]);
                }),
            ),
            (
                "add 1D space",
                Box::new(|d| {
                    d.add_state(StateKind::BlendSpace1D(BlendSpace1D::default()), [0.0, 90.0]);
                }),
            ),
            (
                "connect",
                Box::new(|d| {
                    d.connect("Hurt", "Move");
                }),
            ),
            (
                "connect from any",
                Box::new(|d| {
                    d.connect(ANY_STATE, "Move");
                }),
            ),
            (
                "delete a state",
                Box::new(|d| {
                    d.selection = Selection::state(index_of(d, "Hurt"));
                    d.delete_selection();
                }),
            ),
            (
                "delete two states",
                Box::new(|d| {
                    d.selection = Selection::States(vec![0, 1]);
                    d.delete_selection();
                }),
            ),
            (
                "delete a transition",
                Box::new(|d| {
                    d.selection = Selection::Transition(0);
                    d.delete_selection();
                }),
            ),
            (
                "duplicate",
                Box::new(|d| {
                    d.select_all();
                    d.duplicate_selection();
                }),
            ),
            (
                "rename a state",
                Box::new(|d| {
                    d.rename_state(index_of(d, "Move"), "Locomotion").unwrap();
                }),
            ),
            ("set a speed", Box::new(|d| d.edit_machine(|m| m.states[0].speed = 1.5))),
            (
                "typing coalesced",
                Box::new(|d| {
                    for v in [0.1, 0.2, 0.3] {
                        d.edit_graph_coalesced(7, |g| g.default_mix = v);
                    }
                }),
            ),
            ("add layer", Box::new(|d| d.add_layer())),
            ("remove layer", Box::new(|d| d.remove_layer(1))),
            ("move layer", Box::new(|d| d.move_layer(2, 0))),
            (
                "add parameter",
                Box::new(|d| {
                    d.add_parameter(ParameterType::Int);
                }),
            ),
            (
                "remove parameter",
                Box::new(|d| {
                    d.remove_parameter(0);
                }),
            ),
            (
                "rename parameter",
                Box::new(|d| {
                    d.rename_parameter("speed", "velocity").unwrap();
                }),
            ),
            ("change parameter type", Box::new(|d| d.set_parameter_type("speed", ParameterType::Int))),
            (
                "add condition",
                Box::new(|d| {
                    d.edit_machine(|m| {
                        m.transitions[0].conditions.push(GraphCondition {
                            parameter: "speed".into(),
                            op: ConditionOp::Greater,
                            value: 2.0,
                        })
                    })
                }),
            ),
            (
                "move condition",
                Box::new(|d| {
                    // Move -> Air tests `jump` and `grounded`.
                    assert_eq!(d.machine().unwrap().transitions[0].conditions.len(), 2);
                    d.move_condition(0, 1, -1);
                }),
            ),
            (
                "add mix",
                Box::new(|d| {
                    d.edit_graph(|g| {
                        g.mixes.push(GraphMixOverride {
                            from: "walk".into(),
                            to: "run".into(),
                            duration: 0.3,
                        })
                    })
                }),
            ),
            (
                "mask",
                Box::new(|d| {
                    d.edit_graph(|g| {
                        g.layers[0].mask = Some(animgraph_runtime::BoneMask::new(vec!["Hip".into()], false))
                    })
                }),
            ),
        ]
    }

    /// Copy and paste: within a graph the copies get new names beside the originals; into
    /// another graph they keep their names, bring the transitions among them and the
    /// parameters they use, and the result validates; cut then paste puts them back.
    #[test]
    fn copy_cut_and_paste_round_trip_within_and_between_graphs() {
        let mut gbot = gbot();
        let names =
            |d: &Document| d.machine().unwrap().states.iter().map(|s| s.name.clone()).collect::<Vec<_>>();
        let index = |d: &Document, n: &str| names(d).iter().position(|s| s == n).unwrap();
        gbot.selection = Selection::States(vec![index(&gbot, "Move"), index(&gbot, "Air")]);
        let clip = gbot.copy_selection().unwrap();
        assert_eq!(clip.transitions.len(), 2, "Move -> Air and Air -> Move");
        let used: Vec<&str> = clip.parameters.iter().map(|p| p.name.as_str()).collect();
        assert!(used.contains(&"speed") && used.contains(&"jump") && used.contains(&"grounded"), "{used:?}");
        assert!(!used.contains(&"hurt"), "Hurt was not copied: {used:?}");
        // Into the same machine: renamed, shifted, selected.
        gbot.paste(&clip);
        assert!(
            names(&gbot).contains(&"Move copy".to_string()) && names(&gbot).contains(&"Air copy".to_string())
        );
        let (m, c) = (index(&gbot, "Move"), index(&gbot, "Move copy"));
        let machine = gbot.machine().unwrap();
        assert_eq!(
            machine.states[c].editor_position[0],
            machine.states[m].editor_position[0] + DUPLICATE_OFFSET[0]
        );
        assert!(machine.transitions.iter().any(|t| t.from == "Move copy" && t.to == "Air copy"));
        assert!(validate(&gbot.graph).iter().all(|i| !i.is_error()));
        // Into another graph: names kept, parameters added, valid.
        let mut other = Document::new(AnimationGraph::default(), None, String::new());
        other.edit_graph(|g| g.layers.push(GraphLayer::default()));
        other.paste(&clip);
        assert_eq!(names(&other), ["Move", "Air"]);
        assert!(other.graph.parameter("jump").is_some() && other.graph.parameter("speed").is_some());
        assert_eq!(other.machine().unwrap().transitions.len(), 2);
        other.edit_machine(|m| m.entry = "Move".into());
        let errors: Vec<_> = validate(&other.graph).into_iter().filter(|i| i.is_error()).collect();
        assert!(errors.is_empty(), "{errors:?}");
        // Cut, then paste: back, one undo step each.
        let mut doc = self::gbot();
        let before = doc.machine().unwrap().states.len();
        doc.selection = Selection::States(vec![index(&doc, "Hurt")]);
        let cut = doc.cut_selection().unwrap();
        assert_eq!(doc.machine().unwrap().states.len(), before - 1);
        doc.paste(&cut);
        assert!(names(&doc).contains(&"Hurt".to_string()), "pasted under its own name");
        doc.undo();
        assert!(!names(&doc).contains(&"Hurt".to_string()));
        doc.undo();
        assert_eq!(doc.machine().unwrap().states.len(), before);
    }

    /// Arrange lays the shown machine out without overlaps as one undo step.
    #[test]
    fn arrange_is_one_undoable_step() {
        let mut doc = gbot();
        doc.add_state(StateKind::Clip(ClipState::default()), [5.0, 5.0]); // on top of Move
        assert!(crate::layout::overlapping(doc.machine().unwrap()));
        let before = doc.graph.clone();
        assert!(doc.arrange());
        assert!(!crate::layout::overlapping(doc.machine().unwrap()));
        assert!(doc.dirty());
        doc.undo();
        assert_eq!(doc.graph, before);
    }

    /// Undoing (or redoing) back to the saved graph makes the document clean again; an edit
    /// after an undo (which drops the redo branch) never counts as saved.
    #[test]
    fn undoing_back_to_the_saved_graph_is_clean() {
        let dir = scratch_dir("dirty");
        let path = dir.join("gbot.mres");
        std::fs::copy(asset("assets/characters/gbot/gbot.mres"), &path).unwrap();
        let mut doc = Document::open(path).unwrap();
        assert!(!doc.dirty());
        let rename = |d: &mut Document, name: &str| {
            let name = name.to_string();
            d.edit_graph(move |g| g.layers[0].name = name);
        };
        rename(&mut doc, "One");
        doc.save().unwrap();
        assert!(!doc.dirty(), "clean after saving");
        rename(&mut doc, "Two");
        assert!(doc.dirty());
        doc.undo();
        assert!(!doc.dirty(), "undo back to the saved graph is clean");
        doc.undo();
        assert!(doc.dirty(), "undo past the save is dirty");
        doc.redo();
        assert!(!doc.dirty(), "redo back to the saved graph is clean");
        doc.redo();
        assert!(doc.dirty());
        // Typing in one field (a coalesced edit) after the save is dirty, and clean when undone.
        doc.undo();
        doc.edit_graph_coalesced(7, |g| g.layers[0].name.push('x'));
        doc.edit_graph_coalesced(7, |g| g.layers[0].name.push('y'));
        assert!(doc.dirty());
        doc.undo();
        assert!(!doc.dirty());
        // A different edit after the undo is not the saved graph, even at the same depth.
        rename(&mut doc, "Three");
        assert!(doc.dirty());
        let _ = std::fs::remove_dir_all(dir);
    }

    #[test]
    fn every_edit_changes_the_graph_and_undo_returns_the_identical_document() {
        for (name, edit) in every_edit() {
            let mut doc = gbot();
            let before = doc.graph.clone();
            let (undo_before, _) = doc.can_undo();
            edit(&mut doc);
            assert_ne!(doc.graph, before, "{name}: changed nothing");
            assert!(doc.dirty(), "{name}: not dirty");
            let after = doc.graph.clone();
            // Every edit here is a single undo step (the coalesced typing included).
            doc.undo();
            assert_eq!(doc.graph, before, "{name}: undo did not restore the graph");
            assert_eq!(doc.can_undo().0, undo_before, "{name}: more than one undo step");
            doc.redo();
            assert_eq!(doc.graph, after, "{name}: redo differs");
        }
    }

    #[test]
    fn every_edit_round_trips_through_mres() {
        let dir = scratch_dir("roundtrip");
        for (i, (name, edit)) in every_edit().into_iter().enumerate() {
            let mut doc = gbot();
            edit(&mut doc);
            let path = dir.join(format!("{i}.mres"));
            doc.save_as(path.clone()).unwrap_or_else(|e| panic!("{name}: {e}"));
            assert!(!doc.dirty());
            let reopened = Document::open(path).unwrap_or_else(|e| panic!("{name}: {e}"));
            assert_eq!(reopened.graph, doc.graph, "{name}: differs after save and open");
        }
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn coalesced_edits_split_at_a_break() {
        let mut doc = gbot();
        let before = doc.graph.clone();
        doc.edit_graph_coalesced(1, |g| g.default_mix = 0.5);
        doc.edit_graph_coalesced(1, |g| g.default_mix = 0.6);
        doc.break_coalescing();
        doc.edit_graph_coalesced(1, |g| g.default_mix = 0.7);
        doc.undo();
        assert_eq!(doc.graph.default_mix, 0.6);
        doc.undo();
        assert_eq!(doc.graph, before);
    }

    #[test]
    fn an_invalid_graph_saves_says_so_and_reopens() {
        let dir = scratch_dir("invalid");
        let mut doc = gbot();
        doc.edit_machine(|m| m.entry = "Nowhere".into());
        doc.save_as(dir.join("broken.mres")).unwrap();
        assert!(doc.status.contains("1 error"), "{}", doc.status);
        // The runtime refuses it; the editor opens it with the problem listed.
        assert!(mres::load_file(dir.join("broken.mres")).is_err());
        let mut reopened = Document::open(dir.join("broken.mres")).unwrap();
        assert_eq!(reopened.graph, doc.graph);
        assert!(
            reopened.problems().iter().any(|p| p.severity == Severity::Error && p.path.ends_with("Entry"))
        );
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn a_file_changed_on_disk_is_noticed_and_reloads_as_an_undoable_step() {
        let dir = scratch_dir("disk");
        let path = dir.join("g.mres");
        std::fs::copy(asset("assets/graphs/locomotion.mres"), &path).unwrap();
        let mut doc = Document::open(path.clone()).unwrap();
        let original = doc.graph.clone();
        let mut changed = original.clone();
        changed.default_mix = 0.45;
        // Another program writes the file.
        std::thread::sleep(std::time::Duration::from_millis(20));
        mres::save_file(&changed, &path).unwrap();
        let deadline = std::time::Instant::now() + std::time::Duration::from_secs(10);
        let text = loop {
            if let Some(t) = doc.changed_on_disk() {
                break t;
            }
            assert!(std::time::Instant::now() < deadline, "the change was not noticed");
            std::thread::sleep(std::time::Duration::from_millis(20));
        };
        doc.reload_from(text).unwrap();
        assert_eq!(doc.graph, changed);
        assert!(!doc.dirty());
        doc.undo();
        assert_eq!(doc.graph, original);
        // The document's own save is not reported as a change on disk.
        doc.save().unwrap();
        std::thread::sleep(std::time::Duration::from_millis(600));
        assert_eq!(doc.changed_on_disk(), None);
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn renaming_a_state_keeps_transitions_and_refuses_reserved_or_taken_names() {
        let mut doc = gbot();
        let air = index_of(&doc, "Air");
        let touching =
            doc.machine().unwrap().transitions.iter().filter(|t| t.from == "Air" || t.to == "Air").count();
        assert!(touching > 0);
        doc.rename_state(air, "Airborne").unwrap();
        let m = doc.machine().unwrap();
        assert_eq!(
            m.transitions.iter().filter(|t| t.from == "Airborne" || t.to == "Airborne").count(),
            touching
        );
        for bad in ["", "*", "<exit>", "a/b", "Move"] {
            assert!(doc.rename_state(air, bad).is_err(), "{bad:?} accepted");
        }
        assert!(validate(&doc.graph).iter().all(|i| i.severity != Severity::Error));
    }

    #[test]
    fn duplicating_copies_states_and_the_transitions_among_them() {
        let mut doc = gbot();
        let (move_, hurt) = (index_of(&doc, "Move"), index_of(&doc, "Hurt"));
        let between = doc
            .machine()
            .unwrap()
            .transitions
            .iter()
            .filter(|t| (t.from == "Move" && t.to == "Hurt") || (t.from == "Hurt" && t.to == "Move"))
            .count();
        let before = doc.machine().unwrap().clone();
        doc.selection = Selection::States(vec![move_, hurt]);
        doc.duplicate_selection();
        let m = doc.machine().unwrap();
        assert_eq!(m.states.len(), before.states.len() + 2);
        assert!(m.state("Move copy").is_some() && m.state("Hurt copy").is_some());
        assert_eq!(m.transitions.len(), before.transitions.len() + between);
        let copy = m.state("Move copy").unwrap();
        let original = before.state("Move").unwrap();
        assert_eq!(copy.editor_position[0], original.editor_position[0] + DUPLICATE_OFFSET[0]);
        assert_eq!(doc.selection.states().len(), 2);
        assert!(validate(&doc.graph).iter().all(|i| i.severity != Severity::Error));
    }

    #[test]
    fn deleting_states_removes_their_transitions_and_moves_the_entry() {
        let mut doc = gbot();
        let entry = doc.machine().unwrap().entry.clone();
        doc.selection = Selection::state(index_of(&doc, &entry));
        doc.delete_selection();
        let m = doc.machine().unwrap();
        assert!(m.transitions.iter().all(|t| t.from != entry && t.to != entry));
        assert_eq!(m.entry, m.states[0].name);
    }

    #[test]
    fn changing_a_parameter_type_refits_its_conditions() {
        let mut doc = gbot();
        // `jump` is a trigger tested with Triggered; as a Bool it must be tested True/False.
        doc.set_parameter_type("jump", ParameterType::Bool);
        let mut ops = Vec::new();
        fn collect(m: &GraphMachine, ops: &mut Vec<ConditionOp>) {
            for t in &m.transitions {
                ops.extend(t.conditions.iter().filter(|c| c.parameter == "jump").map(|c| c.op));
            }
            for s in &m.states {
                if let StateKind::SubMachine(inner) = &s.kind {
                    collect(inner, ops);
                }
            }
        }
        for l in &doc.graph.layers {
            collect(&l.machine, &mut ops);
        }
        assert!(!ops.is_empty());
        assert!(ops.iter().all(|&o| o == ConditionOp::True), "{ops:?}");
        assert!(
            validate(&doc.graph).iter().all(|i| i.severity != Severity::Error),
            "{:?}",
            validate(&doc.graph)
        );
    }

    #[test]
    fn layers_move_and_the_last_layer_stays() {
        let mut doc = gbot();
        let names: Vec<String> = doc.graph.layers.iter().map(|l| l.name.clone()).collect();
        doc.move_layer(0, 2);
        assert_eq!(doc.graph.layers[2].name, names[0]);
        assert_eq!(doc.layer, 2);
        let mut single = Document::untitled();
        single.remove_layer(0);
        assert_eq!(single.graph.layers.len(), 1);
    }

    #[test]
    fn undo_repairs_a_view_into_a_removed_sub_machine() {
        let mut doc = gbot();
        let air = index_of(&doc, "Air");
        doc.nesting.push(air);
        assert!(doc.machine().unwrap().state("Fall").is_some());
        doc.selection = Selection::state(2);
        doc.nesting.clear();
        doc.selection = Selection::state(air);
        doc.delete_selection();
        doc.nesting.push(air.min(1));
        doc.repair_view();
        assert!(doc.machine().is_some());
    }

    #[test]
    fn reveal_follows_a_validator_path_into_sub_machines() {
        let mut doc = Document::open(asset("assets/graphs/showcase.mres")).expect("bundled graph opens");
        let sub = doc.graph.layers[0]
            .machine
            .states
            .iter()
            .position(|s| matches!(s.kind, StateKind::SubMachine(_)))
            .expect("showcase has a sub-machine");
        assert!(
            doc.reveal(&format!(
                "Layers[0].Machine.States[{sub}].Machine.Transitions[0].Conditions[0].Value"
            ))
        );
        assert_eq!(
            (doc.layer, doc.nesting.clone(), doc.selection.clone()),
            (0, vec![sub], Selection::Transition(0))
        );
        assert!(doc.reveal("Layers[1].Machine.States[0].Name"));
        assert_eq!((doc.layer, doc.nesting.clone(), doc.selection.clone()), (1, vec![], Selection::state(0)));
        // A path to nothing changes nothing.
        assert!(!doc.reveal("Layers[0].Machine.States[999].Name"));
        assert!(!doc.reveal("Parameters[0].Name"));
        assert_eq!((doc.layer, doc.nesting.clone(), doc.selection.clone()), (1, vec![], Selection::state(0)));
    }

    #[test]
    fn problems_follow_edits_and_undo() {
        let mut doc = gbot();
        assert!(doc.problems().is_empty());
        doc.edit_machine(|m| m.entry = "NoSuchState".into());
        assert!(doc.problems().iter().any(|p| p.path.ends_with("Entry")), "{:?}", doc.problems());
        doc.undo();
        assert!(doc.problems().is_empty());
    }

    #[test]
    fn lint_findings_follow_edits_the_skeleton_and_undo() {
        let mut doc = Document::open(asset("assets/graphs/locomotion.mres")).unwrap();
        assert!(doc.lint(None).is_empty());
        doc.add_parameter(ParameterType::Float);
        assert_eq!(doc.lint(None).iter().map(|f| f.code.id()).collect::<Vec<_>>(), ["L005"]);
        let skeleton =
            SkeletonFacts { clips: vec!["idle".into(), "walk".into(), "run".into()], ..Default::default() };
        assert!(
            doc.lint(Some(&skeleton)).iter().any(|f| f.code.id() == "L008" && f.message.contains("\"jump\""))
        );
        doc.undo();
        assert!(doc.lint(None).is_empty());
    }

    #[test]
    fn selection_toggles_and_stays_sorted() {
        let mut s = Selection::None;
        s.toggle_state(3);
        s.toggle_state(1);
        assert_eq!(s, Selection::States(vec![1, 3]));
        s.toggle_state(3);
        assert_eq!(s.single_state(), Some(1));
        s.toggle_state(1);
        assert_eq!(s, Selection::None);
    }
}
