//! A validated rooted tree given as a parent array, with the orders both smoothing algorithms walk.
//!
//! Parents may come in any order (a child may have a smaller index than its parent), so the tree
//! is checked here once — one root, every parent in range, no cycles — and a preorder is computed
//! that every later pass relies on instead of index order.

use super::error::TreeError;

/// A rooted tree over nodes `0..len`, checked to have exactly one root and no cycles.
#[derive(Debug, Clone)]
pub struct RootedTree {
    parent: Vec<Option<u32>>,
    root: u32,
    /// Children of node `i` are `children[child_start[i]..child_start[i + 1]]`, in index order.
    child_start: Vec<u32>,
    children: Vec<u32>,
    /// Every node after its parent, each subtree contiguous (depth-first).
    preorder: Vec<u32>,
}

impl RootedTree {
    /// Checks `parent` (`None` marks the root) and builds the tree.
    pub fn new(parent: &[Option<usize>]) -> Result<RootedTree, TreeError> {
        let len = parent.len();
        if len == 0 {
            return Err(TreeError::Empty);
        }
        if u32::try_from(len).is_err() {
            return Err(TreeError::TooManyNodes { len });
        }
        let mut root = None;
        let mut compact_parent = Vec::with_capacity(len);
        let mut child_count = vec![0u32; len + 1];
        for (node, &p) in parent.iter().enumerate() {
            match p {
                None => {
                    if let Some(first) = root {
                        return Err(TreeError::SeveralRoots {
                            first,
                            second: node,
                        });
                    }
                    root = Some(node);
                    compact_parent.push(None);
                }
                Some(p) if p >= len => {
                    return Err(TreeError::ParentOutOfRange {
                        node,
                        parent: p,
                        len,
                    });
                }
                Some(p) if p == node => return Err(TreeError::Cycle { node }),
                Some(p) => {
                    child_count[p] += 1;
                    compact_parent.push(Some(p as u32));
                }
            }
        }
        let root = root.ok_or(TreeError::NoRoot)?;

        // Counting sort of nodes by parent: children lists without a Vec per node.
        let mut child_start = Vec::with_capacity(len + 1);
        let mut running = 0u32;
        for count in &child_count {
            child_start.push(running);
            running += count;
        }
        let mut fill = child_start.clone();
        let mut children = vec![0u32; len - 1];
        for (node, p) in compact_parent.iter().enumerate() {
            if let Some(p) = *p {
                children[fill[p as usize] as usize] = node as u32;
                fill[p as usize] += 1;
            }
        }

        let mut preorder = Vec::with_capacity(len);
        let mut stack = vec![root as u32];
        while let Some(node) = stack.pop() {
            preorder.push(node);
            let range =
                child_start[node as usize] as usize..child_start[node as usize + 1] as usize;
            // Reversed so that children come out in index order.
            stack.extend(children[range].iter().rev());
        }
        if preorder.len() < len {
            return Err(TreeError::Cycle {
                node: node_on_cycle(&compact_parent, &preorder),
            });
        }

        Ok(RootedTree {
            parent: compact_parent,
            root: root as u32,
            child_start,
            children,
            preorder,
        })
    }

    /// Number of nodes.
    pub fn len(&self) -> usize {
        self.parent.len()
    }

    /// Always false: a tree has a root.
    pub fn is_empty(&self) -> bool {
        false
    }

    /// The root's index.
    pub fn root(&self) -> usize {
        self.root as usize
    }

    /// Parent of `node`, `None` for the root.
    pub fn parent(&self, node: usize) -> Option<usize> {
        self.parent[node].map(|p| p as usize)
    }

    /// Children of `node` in index order.
    pub fn children(&self, node: usize) -> &[u32] {
        &self.children[self.child_start[node] as usize..self.child_start[node + 1] as usize]
    }

    /// Nodes in depth-first preorder: each after its parent, each subtree contiguous. Walked
    /// backwards it visits children before parents and finishes a subtree before leaving it,
    /// which keeps per-subtree scratch memory proportional to the depth.
    pub fn preorder(&self) -> &[u32] {
        &self.preorder
    }

    /// Depth of every node (root 0).
    pub fn depths(&self) -> Vec<u32> {
        let mut depth = vec![0u32; self.len()];
        for &node in &self.preorder[1..] {
            let p = self.parent[node as usize].expect("only the root lacks a parent");
            depth[node as usize] = depth[p as usize] + 1;
        }
        depth
    }

    /// Number of nodes in the subtree of every node, itself included.
    pub fn subtree_sizes(&self) -> Vec<u32> {
        let mut size = vec![1u32; self.len()];
        for &node in self.preorder.iter().rev() {
            if let Some(p) = self.parent[node as usize] {
                size[p as usize] += size[node as usize];
            }
        }
        size
    }
}

/// A node on a cycle, given the nodes reachable from the root: following parents from any
/// unreachable node never reaches the root, so after `len` steps it is walking a cycle.
fn node_on_cycle(parent: &[Option<u32>], reachable: &[u32]) -> usize {
    let mut seen = vec![false; parent.len()];
    for &node in reachable {
        seen[node as usize] = true;
    }
    let mut node = seen.iter().position(|&s| !s).unwrap_or(0);
    for _ in 0..parent.len() {
        node = parent[node].map_or(node, |p| p as usize);
    }
    node
}
