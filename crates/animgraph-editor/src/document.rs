//! A document: one graph open in a tab, with its undo history and where the canvas looks.

use std::path::PathBuf;

use animgraph::AnimationGraph;
use animgraph::graph::{GraphIssue, GraphMachine, StateKind, validate};
use animgraph::mres;

/// What is selected on the canvas.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Selection {
    /// Nothing.
    None,
    /// A state of the shown machine (index).
    State(usize),
    /// A transition of the shown machine (index).
    Transition(usize),
}

/// A graph being edited.
pub struct Document {
    /// Where it is saved (`None` until "Save as").
    pub path: Option<PathBuf>,
    /// The graph.
    pub graph: AnimationGraph,
    undo: Vec<AnimationGraph>,
    redo: Vec<AnimationGraph>,
    /// Bumped by every edit.
    pub version: u64,
    saved_version: u64,
    /// The layer shown.
    pub layer: usize,
    /// Sub-machine states entered from the layer's machine (breadcrumb).
    pub nesting: Vec<usize>,
    /// The canvas selection.
    pub selection: Selection,
    /// The last load/save message.
    pub status: String,
    /// The validator's findings and the version they were computed for.
    problems: Option<(u64, Vec<GraphIssue>)>,
}

/// Most undo steps kept.
const UNDO_LIMIT: usize = 200;

impl Document {
    /// Opens a `.mres` file.
    pub fn open(path: PathBuf) -> Result<Document, String> {
        let loaded = mres::load_file(&path).map_err(|e| format!("{}: {e}", path.display()))?;
        let status = if loaded.warnings.is_empty() {
            format!("opened {}", path.display())
        } else {
            format!("opened {} with {} warnings", path.display(), loaded.warnings.len())
        };
        Ok(Document::new(loaded.graph, Some(path), status))
    }

    /// A document for a graph.
    pub fn new(graph: AnimationGraph, path: Option<PathBuf>, status: String) -> Document {
        Document {
            path,
            graph,
            undo: Vec::new(),
            redo: Vec::new(),
            version: 0,
            saved_version: 0,
            layer: 0,
            nesting: Vec::new(),
            selection: Selection::None,
            status,
            problems: None,
        }
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
        self.version != self.saved_version
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
                if let Selection::State(i) = selection {
                    nesting.push(i);
                }
                selection = Selection::None;
            } else if let Some(i) = index(part, "States") {
                selection = Selection::State(i);
            } else if let Some(i) = index(part, "Transitions") {
                selection = Selection::Transition(i);
                break;
            } else {
                break;
            }
        }
        let saved = (self.layer, std::mem::take(&mut self.nesting), self.selection);
        self.layer = layer;
        self.nesting = nesting;
        let exists = self.machine().is_some_and(|m| match selection {
            Selection::State(i) => i < m.states.len(),
            Selection::Transition(i) => i < m.transitions.len(),
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

    /// Records the graph for undo before a change (call once per user action).
    pub fn checkpoint(&mut self) {
        self.undo.push(self.graph.clone());
        if self.undo.len() > UNDO_LIMIT {
            self.undo.remove(0);
        }
        self.redo.clear();
        self.version += 1;
    }

    /// One undoable edit of the shown machine.
    pub fn edit_machine(&mut self, f: impl FnOnce(&mut GraphMachine)) {
        self.checkpoint();
        let (layer, nesting) = (self.layer, self.nesting.clone());
        if let Some(m) = Self::machine_of(&mut self.graph, layer, &nesting) {
            f(m);
        }
    }

    /// Changes the shown machine without a new undo step (during a drag that began with
    /// [`checkpoint`](Self::checkpoint)).
    pub fn machine_untracked(&mut self) -> Option<&mut GraphMachine> {
        let (layer, nesting) = (self.layer, self.nesting.clone());
        Self::machine_of(&mut self.graph, layer, &nesting)
    }

    /// One undoable edit of the whole graph.
    pub fn edit_graph(&mut self, f: impl FnOnce(&mut AnimationGraph)) {
        self.checkpoint();
        f(&mut self.graph);
    }

    /// Undoes the last edit.
    pub fn undo(&mut self) {
        if let Some(previous) = self.undo.pop() {
            self.redo.push(std::mem::replace(&mut self.graph, previous));
            self.version += 1;
            self.repair_view();
        }
    }

    /// Redoes the last undone edit.
    pub fn redo(&mut self) {
        if let Some(next) = self.redo.pop() {
            self.undo.push(std::mem::replace(&mut self.graph, next));
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
            self.layer = 0;
            self.nesting.clear();
        }
        while !self.nesting.is_empty() && self.machine().is_none() {
            self.nesting.pop();
        }
        let (states, transitions) = self.machine().map_or((0, 0), |m| (m.states.len(), m.transitions.len()));
        self.selection = match self.selection {
            Selection::State(i) if i < states => Selection::State(i),
            Selection::Transition(i) if i < transitions => Selection::Transition(i),
            _ => Selection::None,
        };
    }

    /// Saves atomically to the document's path.
    pub fn save(&mut self) -> Result<(), String> {
        let path = self.path.clone().ok_or("the graph has no file yet; use Save as")?;
        mres::save_file(&self.graph, &path).map_err(|e| e.to_string())?;
        self.saved_version = self.version;
        self.status = format!("saved {}", path.display());
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn gbot() -> Document {
        Document::open(PathBuf::from(concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/../../assets/characters/gbot/gbot.mres"
        )))
        .unwrap()
    }

    #[test]
    fn edits_undo_and_redo_and_mark_the_document_dirty() {
        let mut doc = gbot();
        assert!(!doc.dirty());
        let before = doc.graph.clone();
        doc.edit_machine(|m| m.states[0].speed = 2.0);
        assert!(doc.dirty());
        assert_eq!(doc.machine().unwrap().states[0].speed, 2.0);
        doc.undo();
        assert_eq!(doc.graph, before);
        doc.redo();
        assert_eq!(doc.machine().unwrap().states[0].speed, 2.0);
        assert!(doc.title().ends_with(" *"));
    }

    #[test]
    fn undo_repairs_a_view_into_a_removed_sub_machine() {
        let mut doc = gbot();
        let air = doc.machine().unwrap().states.iter().position(|s| s.name == "Air").unwrap();
        doc.nesting.push(air);
        assert!(doc.machine().unwrap().states.iter().any(|s| s.name == "Fall"));
        doc.selection = Selection::State(2);
        doc.nesting.clear();
        doc.edit_machine(|m| {
            m.states.remove(air);
        });
        doc.nesting.push(air.min(1));
        doc.repair_view();
        assert!(doc.machine().is_some());
    }

    #[test]
    fn saving_writes_a_graph_that_loads_back_and_clears_dirty() {
        let dir = std::env::temp_dir().join(format!("animgraph-editor-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let mut doc = gbot();
        doc.path = Some(dir.join("copy.mres"));
        doc.edit_graph(|g| g.default_mix = 0.35);
        doc.save().unwrap();
        assert!(!doc.dirty());
        let reloaded = Document::open(dir.join("copy.mres")).unwrap();
        assert_eq!(reloaded.graph, doc.graph);
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn deleting_a_state_removes_its_transitions() {
        let mut doc = gbot();
        let hurt = doc.machine().unwrap().states.iter().position(|s| s.name == "Hurt").unwrap();
        doc.selection = Selection::State(hurt);
        crate::canvas::delete_selection(&mut doc);
        let m = doc.machine().unwrap();
        assert!(m.transitions.iter().all(|t| t.from != "Hurt" && t.to != "Hurt"));
        assert!(
            animgraph::graph::validate(&doc.graph)
                .iter()
                .all(|i| i.severity != animgraph::graph::Severity::Error)
        );
    }

    #[test]
    fn reveal_follows_a_validator_path_into_sub_machines() {
        let path =
            std::path::PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../assets/graphs/showcase.mres");
        let mut doc = Document::open(path).expect("bundled graph opens");
        // Find a sub-machine state in the base layer and point at its first transition.
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
        assert_eq!((doc.layer, doc.nesting.clone(), doc.selection), (0, vec![sub], Selection::Transition(0)));
        assert!(doc.reveal("Layers[1].Machine.States[0].Name"));
        assert_eq!((doc.layer, doc.nesting.clone(), doc.selection), (1, vec![], Selection::State(0)));
        // A path to nothing changes nothing.
        assert!(!doc.reveal("Layers[0].Machine.States[999].Name"));
        assert!(!doc.reveal("Parameters[0].Name"));
        assert_eq!((doc.layer, doc.nesting.clone(), doc.selection), (1, vec![], Selection::State(0)));
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
}
