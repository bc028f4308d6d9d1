//! A bounded read of a program's accessibility tree: role, name and path of each node, breadth
//! first from the application's root.
//!
//! Why bounded twice: a naive walk costs three D-Bus calls a node (role, name, children), and a program may expose
//! thousands of nodes (a long list) or stop answering; the read stops at a node budget and at a
//! deadline, and says whether it saw the whole tree. A node that disappears while it is read (the
//! program changed) is left out; only a failure at the root is an error. The bulk read the
//! surface's observations need (`org.a11y.atspi.Cache.GetItems`) comes later (`docs/gui.md`).

use crate::error::GuiError;
use crate::program::ROOT_PATH;
use atspi::proxy::accessible::AccessibleProxy;
use std::collections::VecDeque;
use std::time::{Duration, Instant};

/// One accessible object of a program.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Node {
    /// Its object path on the program's bus connection.
    pub path: String,
    /// Its AT-SPI role (`Role::Button` is the classic "push button"); `Role::name` spells it.
    pub role: atspi::Role,
    /// Its accessible name (empty when it has none).
    pub name: String,
    /// How many steps below the application's root it is.
    pub depth: usize,
}

/// The bounds of one read.
#[derive(Debug, Clone, Copy)]
pub struct Limits {
    /// At most this many nodes are read.
    pub max_nodes: usize,
    /// The read stops when this much time has passed.
    pub within: Duration,
}

impl Default for Limits {
    /// 2000 nodes, 5 s: a whole ordinary application window.
    fn default() -> Limits {
        Limits {
            max_nodes: 2000,
            within: Duration::from_secs(5),
        }
    }
}

/// The nodes read, and whether they are the whole tree.
#[derive(Debug, Clone)]
pub struct Tree {
    /// The nodes, breadth first; the application's root first.
    pub nodes: Vec<Node>,
    /// False when the budget or the deadline cut the read short.
    pub complete: bool,
}

/// Read the tree of the application at `bus_name` (see the module doc for the bounds).
pub async fn read(
    a11y: &zbus::Connection,
    bus_name: &str,
    limits: Limits,
) -> Result<Tree, GuiError> {
    let started = Instant::now();
    let mut nodes = Vec::new();
    let mut queue = VecDeque::from([(ROOT_PATH.to_owned(), 0usize)]);
    while let Some((path, depth)) = queue.pop_front() {
        if nodes.len() >= limits.max_nodes || started.elapsed() >= limits.within {
            return Ok(Tree {
                nodes,
                complete: false,
            });
        }
        let left = limits.within.saturating_sub(started.elapsed());
        let read = tokio::time::timeout(left, read_node(a11y, bus_name, &path)).await;
        match read {
            Err(_) => {
                return Ok(Tree {
                    nodes,
                    complete: false,
                })
            }
            Ok(Ok((role, name, children))) => {
                nodes.push(Node {
                    path,
                    role,
                    name,
                    depth,
                });
                queue.extend(children.into_iter().map(|child| (child, depth + 1)));
            }
            Ok(Err(source)) if depth == 0 => return Err(source),
            // Gone while it was read: the program changed under the read.
            Ok(Err(_)) => {}
        }
    }
    Ok(Tree {
        nodes,
        complete: true,
    })
}

/// Role, name and children's paths of one object.
async fn read_node(
    a11y: &zbus::Connection,
    bus_name: &str,
    path: &str,
) -> Result<(atspi::Role, String, Vec<String>), GuiError> {
    let bus = |call| {
        move |source| GuiError::Bus {
            call,
            source: Box::new(source),
        }
    };
    let proxy = AccessibleProxy::builder(a11y)
        .destination(bus_name.to_owned())
        .map_err(bus("Accessible"))?
        .path(path.to_owned())
        .map_err(bus("Accessible"))?
        // Each property is read once: no cache to fill, no signals to subscribe to.
        .cache_properties(zbus::proxy::CacheProperties::No)
        .build()
        .await
        .map_err(bus("Accessible"))?;
    let role = proxy.get_role().await.map_err(bus("GetRole"))?;
    let name = proxy.name().await.map_err(bus("Name"))?;
    let children = proxy.get_children().await.map_err(bus("GetChildren"))?;
    let children = children
        .into_iter()
        // A child on another connection (an embedded plug) is not this program's to read.
        .filter(|c| c.name_as_str() == Some(bus_name))
        .map(|c| c.path_as_str().to_owned())
        .collect();
    Ok((role, name, children))
}
