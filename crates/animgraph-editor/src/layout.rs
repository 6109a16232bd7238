//! Automatic layout of a machine's states (layered graph drawing, Sugiyama-style): the entry
//! state in the first column, each state one column right of the nearest state that leads to
//! it, states in a column ordered by where their predecessors sit (fewer crossings), columns and
//! rows spaced so no two boxes overlap. Used by "Arrange" and, on opening a file, for machines
//! whose states pile up on one spot (files written without editor positions).

use std::collections::VecDeque;

use animgraph_runtime::graph::{GraphMachine, StateKind};

use crate::canvas::BOX;

/// Horizontal and vertical distance between the origins of neighbouring boxes.
pub const COLUMN: f32 = BOX.x + 110.0;
/// See [`COLUMN`].
pub const ROW: f32 = BOX.y + 54.0;

/// Layered positions for `machine`'s states, index for index.
pub fn layered(machine: &GraphMachine) -> Vec<[f32; 2]> {
    let n = machine.states.len();
    let index = |name: &str| machine.states.iter().position(|s| s.name == name);
    // Edges between states (Any State and Exit are drawn apart and do not place states).
    let edges: Vec<(usize, usize)> = machine
        .transitions
        .iter()
        .filter_map(|t| Some((index(&t.from)?, index(&t.to)?)))
        .filter(|(a, b)| a != b)
        .collect();
    // Columns: breadth-first from the entry, then from each state not reached yet.
    let mut column = vec![usize::MAX; n];
    let starts = index(&machine.entry).into_iter().chain(0..n);
    for start in starts {
        if column[start] != usize::MAX {
            continue;
        }
        // A component not reached from the entry starts in the first column too.
        column[start] = 0;
        let mut queue = VecDeque::from([start]);
        while let Some(a) = queue.pop_front() {
            for &(_, b) in edges.iter().filter(|(from, _)| *from == a) {
                if column[b] == usize::MAX {
                    column[b] = column[a] + 1;
                    queue.push_back(b);
                }
            }
        }
    }
    let columns = column.iter().copied().max().map_or(0, |m| m + 1);
    // Rows: column by column, by the mean row of the predecessors already placed (barycentre),
    // ties in list order.
    let mut row = vec![0.0f32; n];
    for c in 0..columns {
        let mut members: Vec<(f32, usize)> = (0..n)
            .filter(|&i| column[i] == c)
            .map(|i| {
                let before: Vec<f32> =
                    edges.iter().filter(|&&(a, b)| b == i && column[a] < c).map(|&(a, _)| row[a]).collect();
                let key = if before.is_empty() {
                    i as f32 * 1e-3
                } else {
                    before.iter().sum::<f32>() / before.len() as f32
                };
                (key, i)
            })
            .collect();
        members.sort_by(|x, y| x.0.total_cmp(&y.0).then(x.1.cmp(&y.1)));
        let half = (members.len() as f32 - 1.0) / 2.0;
        for (k, &(_, i)) in members.iter().enumerate() {
            row[i] = k as f32 - half;
        }
    }
    (0..n).map(|i| [column[i] as f32 * COLUMN, row[i] * ROW]).collect()
}

/// Whether two of the machine's state boxes overlap.
pub fn overlapping(machine: &GraphMachine) -> bool {
    let p: Vec<[f32; 2]> = machine.states.iter().map(|s| s.editor_position).collect();
    (0..p.len()).any(|i| {
        (i + 1..p.len()).any(|j| (p[i][0] - p[j][0]).abs() < BOX.x && (p[i][1] - p[j][1]).abs() < BOX.y)
    })
}

/// Whether two of the machine's states sit at exactly the same place: what a file written
/// without editor positions gives (every state at the origin). Boxes the user merely placed
/// overlapping are left as they are.
pub fn piled_up(machine: &GraphMachine) -> bool {
    let p: Vec<[f32; 2]> = machine.states.iter().map(|s| s.editor_position).collect();
    (0..p.len()).any(|i| (i + 1..p.len()).any(|j| p[i] == p[j]))
}

/// Lays out every machine of `machines` (and their sub-machines) with states piled up on one
/// another ([`piled_up`]); returns how many machines it arranged.
pub fn arrange_piled_up<'a>(machines: impl IntoIterator<Item = &'a mut GraphMachine>) -> usize {
    machines.into_iter().map(arrange_one).sum()
}

fn arrange_one(machine: &mut GraphMachine) -> usize {
    let mut arranged = 0;
    if piled_up(machine) {
        let positions = layered(machine);
        for (state, position) in machine.states.iter_mut().zip(positions) {
            state.editor_position = position;
        }
        arranged += 1;
    }
    for state in &mut machine.states {
        if let StateKind::SubMachine(inner) = &mut state.kind {
            arranged += arrange_one(inner);
        }
    }
    arranged
}

#[cfg(test)]
mod tests {
    use super::*;
    use animgraph_runtime::AnimationGraph;

    fn bundled() -> Vec<(String, AnimationGraph)> {
        let root = std::path::PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../assets");
        let mut files = Vec::new();
        for dir in ["graphs", "characters/gbot", "characters/robot", "characters/fox"] {
            for entry in std::fs::read_dir(root.join(dir)).unwrap() {
                let path = entry.unwrap().path();
                if path.extension().is_some_and(|e| e == "mres") {
                    let text = std::fs::read_to_string(&path).unwrap();
                    let graph = animgraph_runtime::mres::load_str_editable(&text).unwrap().graph;
                    files.push((path.display().to_string(), graph));
                }
            }
        }
        assert!(files.len() >= 6, "the bundled graphs: {}", files.len());
        files
    }

    /// The layers' machines (arrange_piled_up walks their sub-machines itself).
    fn machines(graph: &mut AnimationGraph) -> Vec<&mut GraphMachine> {
        graph.layers.iter_mut().map(|l| &mut l.machine).collect()
    }

    /// After layout, no two boxes of any machine of the bundled graphs overlap (sub-machines
    /// included), and every state reached from the entry sits right of some state leading to it.
    #[test]
    fn layered_layout_never_overlaps_boxes() {
        for (name, mut graph) in bundled() {
            fn check(name: &str, m: &mut GraphMachine) {
                let positions = layered(m);
                for (s, p) in m.states.iter_mut().zip(positions) {
                    s.editor_position = p;
                }
                assert!(!overlapping(m), "{name}: boxes overlap after layout");
                if let Some(entry) = m.states.iter().find(|s| s.name == m.entry) {
                    assert_eq!(entry.editor_position[0], 0.0, "{name}: the entry is in the first column");
                }
                for s in &mut m.states {
                    if let StateKind::SubMachine(inner) = &mut s.kind {
                        check(name, inner);
                    }
                }
            }
            for layer in &mut graph.layers {
                check(&name, &mut layer.machine);
            }
        }
    }

    /// A file without positions (every state at the origin) is laid out on opening.
    #[test]
    fn piled_up_states_are_laid_out() {
        let (_, mut graph) = bundled().into_iter().find(|(n, _)| n.ends_with("locomotion.mres")).unwrap();
        assert!(piled_up(&graph.layers[0].machine), "locomotion.mres has no positions");
        assert!(arrange_piled_up(machines(&mut graph)) >= 1);
        assert!(graph.layers.iter().all(|l| !overlapping(&l.machine)));
        // A laid-out graph is left alone.
        assert_eq!(arrange_piled_up(machines(&mut graph)), 0);
    }
}
