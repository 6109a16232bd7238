//! The node hierarchy: one parent per node, no cycles (checked once, so every walk up ends), and
//! each node's rest transform.

use glam::{Mat4, Quat, Vec3};

/// The checked hierarchy of a document's nodes.
pub(crate) struct Nodes {
    pub parent: Vec<Option<usize>>,
    /// Rest translation, rotation, scale per node.
    pub trs: Vec<(Vec3, Quat, Vec3)>,
    pub names: Vec<String>,
}

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
        Ok(Nodes { parent, trs, names })
    }

    pub fn local(&self, node: usize) -> Mat4 {
        let (t, r, s) = self.trs[node];
        Mat4::from_scale_rotation_translation(s, r, t)
    }

    /// The rest world transform of `node` (terminates: the hierarchy is acyclic).
    pub fn world(&self, node: usize) -> Mat4 {
        let mut m = self.local(node);
        let mut at = node;
        while let Some(p) = self.parent[at] {
            m = self.local(p) * m;
            at = p;
        }
        m
    }

    /// Whether `ancestor` is above `node`.
    pub fn is_ancestor(&self, ancestor: usize, node: usize) -> bool {
        let mut at = node;
        while let Some(p) = self.parent[at] {
            if p == ancestor {
                return true;
            }
            at = p;
        }
        false
    }
}
