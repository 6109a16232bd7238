//! The node hierarchy: one parent per node, no cycles (checked once, so every walk up ends), and
//! each node's rest transform.

use glam::{Mat4, Quat, Vec3};

/// The checked hierarchy of a document's nodes.
pub(crate) struct Nodes {
    pub parent: Vec<Option<usize>>,
    /// Rest translation, rotation, scale per node.
    pub trs: Vec<(Vec3, Quat, Vec3)>,
    pub names: Vec<String>,
    /// Every node, parents before children.
    pub order: Vec<usize>,
    /// Rest world transforms.
    worlds: Vec<Mat4>,
}

/// For one node: the nearest bone strictly above it, and the product of the non-bone nodes'
/// transforms between that bone and it (exclusive of both; all ancestors when no bone is above).
pub(crate) type Link = (Option<usize>, Mat4);

impl Nodes {
    pub fn of(root: &gltf_json::Root) -> Result<Nodes, String> {
        let n = root.nodes.len();
        let mut parent: Vec<Option<usize>> = vec![None; n];
        for (i, node) in root.nodes.iter().enumerate() {
            for child in node.children.iter().flatten() {
                let c = child.value();
                if c >= n {
                    return Err(format!("nodes[{i}].children names node {c}, but the file has {n} nodes"));
                }
                if let Some(p) = parent[c] {
                    return Err(format!(
                        "nodes[{c}] is a child of both nodes[{p}] and nodes[{i}]; a node has one parent"
                    ));
                }
                parent[c] = Some(i);
            }
        }
        // Every walk up must end within n steps; otherwise the hierarchy has a cycle.
        let mut done = vec![false; n];
        for start in 0..n {
            let mut node = start;
            let mut steps = 0;
            while let Some(p) = parent[node] {
                if done[p] {
                    break;
                }
                steps += 1;
                if steps > n {
                    return Err(format!(
                        "the node hierarchy has a cycle through nodes[{start}] (\"{}\"); no node may be its own ancestor",
                        root.nodes[start].name.as_deref().unwrap_or("")
                    ));
                }
                node = p;
            }
            done[start] = true;
        }
        let mut trs = Vec::with_capacity(n);
        for (i, node) in root.nodes.iter().enumerate() {
            let t = match node.matrix {
                Some(m) if m != [1., 0., 0., 0., 0., 1., 0., 0., 0., 0., 1., 0., 0., 0., 0., 1.] => {
                    let (s, r, t) = Mat4::from_cols_array(&m).to_scale_rotation_translation();
                    (t, r, s)
                }
                _ => (
                    Vec3::from(node.translation.unwrap_or([0.0; 3])),
                    Quat::from_array(node.rotation.map_or([0., 0., 0., 1.], |r| r.0)),
                    Vec3::from(node.scale.unwrap_or([1.0; 3])),
                ),
            };
            if !(t.0.is_finite() && t.1.is_finite() && t.2.is_finite()) {
                return Err(format!(
                    "nodes[{i}] (\"{}\") has a transform that is not finite; fix it in the exporter",
                    node.name.as_deref().unwrap_or("")
                ));
            }
            let r = if t.1.length_squared() > 1e-12 { t.1.normalize() } else { Quat::IDENTITY };
            trs.push((t.0, r, t.2));
        }
        let names = root
            .nodes
            .iter()
            .enumerate()
            .map(|(i, n)| n.name.clone().unwrap_or_else(|| format!("node_{i}")))
            .collect();
        // Parents first: depth-first from every root (the hierarchy is a forest now).
        let mut children: Vec<Vec<usize>> = vec![Vec::new(); n];
        for (c, p) in parent.iter().enumerate() {
            if let Some(p) = p {
                children[*p].push(c);
            }
        }
        let mut order = Vec::with_capacity(n);
        let mut stack: Vec<usize> = (0..n).filter(|&i| parent[i].is_none()).rev().collect();
        while let Some(x) = stack.pop() {
            order.push(x);
            stack.extend(children[x].iter().rev());
        }
        let mut nodes = Nodes { parent, trs, names, order, worlds: Vec::new() };
        let mut worlds = vec![Mat4::IDENTITY; n];
        for &x in &nodes.order {
            worlds[x] = match nodes.parent[x] {
                Some(p) => worlds[p] * nodes.local(x),
                None => nodes.local(x),
            };
        }
        nodes.worlds = worlds;
        Ok(nodes)
    }

    /// Each node's [`Link`] for the bones flagged in `is_bone`, in one pass.
    pub fn links(&self, is_bone: &[bool]) -> Vec<Link> {
        let mut links: Vec<Link> = vec![(None, Mat4::IDENTITY); self.parent.len()];
        for &x in &self.order {
            if let Some(p) = self.parent[x] {
                links[x] = if is_bone[p] {
                    (Some(p), Mat4::IDENTITY)
                } else {
                    (links[p].0, links[p].1 * self.local(p))
                };
            }
        }
        links
    }

    pub fn local(&self, node: usize) -> Mat4 {
        let (t, r, s) = self.trs[node];
        Mat4::from_scale_rotation_translation(s, r, t)
    }

    /// The rest world transform of `node`.
    pub fn world(&self, node: usize) -> Mat4 {
        self.worlds[node]
    }

    /// Flags every node that has one of `nodes` below it, in one pass up from each.
    pub fn above(&self, nodes: &[usize]) -> Vec<bool> {
        let mut above = vec![false; self.parent.len()];
        for &n in nodes {
            let mut at = n;
            while let Some(p) = self.parent[at] {
                if std::mem::replace(&mut above[p], true) {
                    break;
                }
                at = p;
            }
        }
        above
    }
}
