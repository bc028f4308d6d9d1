//! A bounded read of a program's accessibility tree: role, name and path of each node, breadth
//! first from the application's root.
//!
//! Why bounded twice: a naive walk costs three D-Bus calls a node (role, name, children), and a program may expose
//! thousands of nodes (a long list) or stop answering; the read stops at a node budget and at a
//! deadline, and says whether it saw the whole tree. A node that disappears while it is read (the
//! program changed) is left out; only a failure at the root is an error. The bulk read the
//! surface's observations need is [`read_bulk`]: the program's `org.a11y.atspi.Cache.GetItems`
//! answers with every object it exported (role, name, parent, index) in one call.

use crate::error::GuiError;
use crate::program::ROOT_PATH;
use crate::toolkit::Toolkit;
use atspi::proxy::accessible::AccessibleProxy;
use std::collections::{HashMap, HashSet};
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
    /// Its parent's path (`None` for the application's root): a click proves where it lands
    /// from these (`crate::ancestry`) instead of asking for each parent again.
    pub parent: Option<String>,
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

/// Read the tree of the application at `bus_name` (see the module doc for the bounds). Each
/// level is read at once (every node's role, name and children asked together), so the read
/// costs about one round trip a level rather than three a node.
pub async fn read(
    a11y: &zbus::Connection,
    bus_name: &str,
    limits: Limits,
) -> Result<Tree, GuiError> {
    read_below(a11y, bus_name, ROOT_PATH, 0, limits).await
}

/// Read the subtree of the object at `path` (`depth` below the application's root), walked as
/// [`read`] walks the whole tree. Why: while a modal dialog is up, only its subtree can take
/// input, and a GTK3 file chooser's program takes longer than a read's bound to walk whole on a
/// loaded machine — the dialog's own subtree alone is what a step's target is found in.
pub async fn read_below(
    a11y: &zbus::Connection,
    bus_name: &str,
    path: &str,
    depth: usize,
    limits: Limits,
) -> Result<Tree, GuiError> {
    let walked = walk(a11y, bus_name, path, depth, limits, Keep::Every).await?;
    Ok(Tree {
        nodes: walked.nodes.into_iter().map(|(node, _)| node).collect(),
        complete: walked.complete,
    })
}

/// Which nodes a [`walk`] keeps, and so what it reads of each besides its role, name and
/// children: a node it skips is left out with everything below it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Keep {
    /// Every node ([`read`], [`read_below`]); states are not read.
    Every,
    /// The walk's first node (the application's root is not a widget: it is never `showing`
    /// itself) and each node that is `showing` ([`read_showing`]); each node's states are read
    /// with the rest, since they decide.
    Showing,
}

/// The nodes a [`walk`] kept, each with its states when its [`Keep`] reads them.
struct Walked {
    nodes: Vec<(Node, Option<atspi::StateSet>)>,
    complete: bool,
}

/// The one walk of a tree: from the object at `path` (`depth` below the application's root), a
/// level at a time, every node of a level read at once (at most 16 in flight,
/// `crate::calls`), bounded by `limits` (see the module doc), keeping what `keep` keeps. Each
/// node carries its parent's path from the level that listed it: the first node's parent is
/// not read here (the root has none; any other's is taken to be the root, as a dialog's is).
async fn walk(
    a11y: &zbus::Connection,
    bus_name: &str,
    path: &str,
    depth: usize,
    limits: Limits,
    keep: Keep,
) -> Result<Walked, GuiError> {
    let started = Instant::now();
    let mut nodes = Vec::new();
    let top_parent = (path != ROOT_PATH).then(|| ROOT_PATH.to_owned());
    let mut level = vec![(path.to_owned(), top_parent)];
    // A toolkit bug (an object listed as its own descendant) cannot make the walk go round.
    let mut seen: HashSet<String> = HashSet::new();
    let first = depth;
    let mut depth = depth;
    while !level.is_empty() {
        level.retain(|(path, _)| seen.insert(path.clone()));
        let room = limits.max_nodes.saturating_sub(nodes.len());
        let cut = level.len() > room;
        level.truncate(room);
        let left = limits.within.saturating_sub(started.elapsed());
        let reads = level
            .iter()
            .map(|(path, _)| read_node(a11y, bus_name, path, keep));
        let Ok(answers) = tokio::time::timeout(left, crate::calls::in_order(reads)).await else {
            return Ok(Walked {
                nodes,
                complete: false,
            });
        };
        let mut next = Vec::new();
        for ((path, parent), answer) in level.into_iter().zip(answers) {
            match answer {
                Ok(read) if depth == first || read.kept_by(keep) => {
                    next.extend(read.children.into_iter().map(|c| (c, Some(path.clone()))));
                    let node = Node {
                        path,
                        role: read.role,
                        name: read.name,
                        depth,
                        parent,
                    };
                    nodes.push((node, read.states));
                }
                // Skipped, with everything below it.
                Ok(_) => {}
                Err(source) if depth == first => return Err(source),
                // Gone while it was read: the program changed under the read.
                Err(_) => {}
            }
        }
        if cut || (!next.is_empty() && nodes.len() >= limits.max_nodes) {
            return Ok(Walked {
                nodes,
                complete: false,
            });
        }
        level = next;
        depth += 1;
    }
    Ok(Walked {
        nodes,
        complete: true,
    })
}

/// The application's root and its children — its top-level windows and dialogs — only: what a
/// step asks before it acts (is there still a window?), in two round trips whatever the size of
/// the tree. Why not [`read`]: a GTK3 file chooser's tree takes seconds to walk on a loaded
/// machine, and a read cut short by its bound must not look like a program without windows.
pub async fn top_levels(a11y: &zbus::Connection, bus_name: &str) -> Result<Vec<Node>, GuiError> {
    let root = read_node(a11y, bus_name, ROOT_PATH, Keep::Every).await?;
    let children = root.children;
    let mut nodes = vec![Node {
        path: ROOT_PATH.to_owned(),
        role: root.role,
        name: root.name,
        depth: 0,
        parent: None,
    }];
    let reads = children
        .iter()
        .map(|path| read_node(a11y, bus_name, path, Keep::Every));
    for (path, answer) in children
        .iter()
        .zip(futures_util::future::join_all(reads).await)
    {
        // A window gone while it was read is not a window.
        if let Ok(window) = answer {
            nodes.push(Node {
                path: path.clone(),
                role: window.role,
                name: window.name,
                depth: 1,
                parent: Some(ROOT_PATH.to_owned()),
            });
        }
    }
    Ok(nodes)
}

/// Read the tree of the application at `bus_name` in bulk (its `Cache.GetItems`), in the same
/// breadth-first order as [`read`]; `None` when the program has no cache interface (the caller
/// falls back to [`read`]), or when `toolkit` (the program's, `Program::toolkit`) keeps no
/// whole cache. GTK4 exports an object only once something asked for it, so a
/// fresh program's cache holds its first levels only: each round asks every node whose cached
/// children are fewer than its child count for its children (`GetChildren`, all at once, which
/// exports them) and reads the cache again, until nothing is missing or the bounds are met.
pub async fn read_bulk(
    a11y: &zbus::Connection,
    bus_name: &str,
    toolkit: Option<&Toolkit>,
    limits: Limits,
) -> Result<Option<Tree>, GuiError> {
    let started = Instant::now();
    let mut laps = crate::timing::Laps::start("bulk");
    let cache = atspi::proxy::cache::CacheProxy::builder(a11y)
        .destination(bus_name.to_owned())
        .map_err(|e| GuiError::bus("Cache", e))?
        .cache_properties(zbus::proxy::CacheProperties::No)
        .build()
        .await
        .map_err(|e| GuiError::bus("Cache", e))?;
    laps.lap("proxy");
    // An unknown toolkit (the program did not answer) is walked: its cache may be GTK3's.
    if !toolkit.is_some_and(Toolkit::cache_is_kept_whole) {
        return Ok(None);
    }
    let top = read_node(a11y, bus_name, ROOT_PATH, Keep::Every).await?;
    laps.lap("root");
    let root = Node {
        path: ROOT_PATH.to_owned(),
        role: top.role,
        name: top.name,
        depth: 0,
        parent: None,
    };
    loop {
        let left = limits.within.saturating_sub(started.elapsed());
        let items = match tokio::time::timeout(left, cache.get_items()).await {
            Ok(Ok(items)) => items,
            // No cache (or another signature): the walk reads the tree instead.
            Ok(Err(_)) => return Ok(None),
            Err(_) => return Ok(Some(order(root, &[], limits, false))),
        };
        let mut cached: HashMap<&str, i32> = HashMap::new();
        for item in items.iter().filter(|item| below_root(item)) {
            *cached.entry(item.parent.path_as_str()).or_default() += 1;
        }
        let missing: Vec<&str> = items
            .iter()
            .filter(|item| {
                item.children > cached.get(item.object.path_as_str()).copied().unwrap_or(0)
            })
            .map(|item| item.object.path_as_str())
            .collect();
        laps.lap("items");
        let out_of_time = started.elapsed() >= limits.within;
        if missing.is_empty() || items.len() >= limits.max_nodes || out_of_time {
            laps.print();
            let complete = missing.is_empty();
            return Ok(Some(order(root, &items, limits, complete)));
        }
        let asks = missing
            .iter()
            .map(|path| read_node(a11y, bus_name, path, Keep::Every));
        // A node gone meanwhile is simply not there next round.
        let _ = crate::calls::in_order(asks).await;
    }
}

/// Cache items in breadth-first order below the root, within the node budget. GTK3's cache
/// (at-spi2-atk) holds the application's root too, whose parent is the registry's root — the
/// same path on another connection: it is left out, and each path is placed once, so no item
/// becomes its own descendant.
fn order(root: Node, items: &[atspi::CacheItem], limits: Limits, complete: bool) -> Tree {
    let mut children: HashMap<&str, Vec<&atspi::CacheItem>> = HashMap::new();
    for item in items.iter().filter(|item| below_root(item)) {
        children
            .entry(item.parent.path_as_str())
            .or_default()
            .push(item);
    }
    for list in children.values_mut() {
        list.sort_by_key(|item| item.index);
    }
    let mut placed: HashSet<String> = HashSet::from([root.path.clone()]);
    let mut nodes = vec![root];
    let mut next = 0;
    while next < nodes.len() {
        if nodes.len() >= limits.max_nodes {
            nodes.truncate(limits.max_nodes);
            return Tree {
                nodes,
                complete: false,
            };
        }
        let (path, depth) = (nodes[next].path.clone(), nodes[next].depth);
        next += 1;
        for item in children
            .get(path.as_str())
            .map(Vec::as_slice)
            .unwrap_or_default()
        {
            if !placed.insert(item.object.path_as_str().to_owned()) {
                continue;
            }
            nodes.push(Node {
                path: item.object.path_as_str().to_owned(),
                role: item.role,
                // The accessible name is the item's first string (`short_name` in `atspi`);
                // the second (`name` there) is the description.
                name: item.short_name.clone(),
                depth: depth + 1,
                parent: Some(path.clone()),
            });
        }
    }
    Tree { nodes, complete }
}

/// Whether a cache item is a node below the application's root (not the root itself, whose
/// parent is on the registry's connection).
fn below_root(item: &atspi::CacheItem) -> bool {
    item.object.path_as_str() != ROOT_PATH
}

/// What a walk reads of one object.
struct NodeRead {
    role: atspi::Role,
    name: String,
    /// Its children's paths on the program's own connection.
    children: Vec<String>,
    /// Its states, when they were asked for.
    states: Option<atspi::StateSet>,
}

impl NodeRead {
    /// Whether `keep` keeps this node (below the walk's first node, which is always kept).
    fn kept_by(&self, keep: Keep) -> bool {
        match keep {
            Keep::Every => true,
            Keep::Showing => self
                .states
                .is_some_and(|states| states.contains(atspi::State::Showing)),
        }
    }
}

/// Role, name and children's paths of one object, and its states when `keep` decides by them,
/// asked together: one round trip a node, not one a property.
async fn read_node(
    a11y: &zbus::Connection,
    bus_name: &str,
    path: &str,
    keep: Keep,
) -> Result<NodeRead, GuiError> {
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
    let (role, name, children, states) = futures_util::try_join!(
        async { proxy.get_role().await.map_err(bus("GetRole")) },
        async { proxy.name().await.map_err(bus("Name")) },
        async { proxy.get_children().await.map_err(bus("GetChildren")) },
        async {
            match keep {
                Keep::Showing => proxy.get_state().await.map(Some).map_err(bus("GetState")),
                Keep::Every => Ok(None),
            }
        },
    )?;
    Ok(NodeRead {
        role,
        name,
        children: own_children(children, bus_name),
        states,
    })
}

/// The paths of `children` on the program's own connection: a child on another one (an
/// embedded plug) is not this program's to read.
fn own_children(children: Vec<atspi::ObjectRefOwned>, bus_name: &str) -> Vec<String> {
    children
        .into_iter()
        .filter(|c| c.name_as_str() == Some(bus_name))
        .map(|c| c.path_as_str().to_owned())
        .collect()
}

/// A node and its states, as [`read_showing`] reads them.
#[derive(Debug, Clone)]
pub struct Shown {
    /// The node.
    pub node: Node,
    /// Its states when it was read.
    pub states: atspi::StateSet,
}

/// The nodes [`read_showing`] read, and whether they are all that is showing.
#[derive(Debug, Clone)]
pub struct ShownTree {
    /// The showing nodes, breadth first; the application's root first.
    pub nodes: Vec<Shown>,
    /// False when the budget or the deadline cut the read short.
    pub complete: bool,
}

/// The part of the program's tree that is on screen, with each node's states: walked as
/// [`read`] walks (a level at a time, at most 16 nodes in flight, bounded the same way), each
/// node's role, name, children and states asked together, and a node that is not `showing`
/// (a closed menu, a hidden search bar, a notebook's other pages) left out with everything
/// below it. Why: an agent's observation shows only what can be acted on, and a GTK3 program's
/// closed menus are most of its tree (mousepad: 322 nodes, most of them menu items nobody can
/// click until their menu opens) — reading them, and then their states one call each, was most
/// of an observation's time.
pub async fn read_showing(
    a11y: &zbus::Connection,
    bus_name: &str,
    limits: Limits,
) -> Result<ShownTree, GuiError> {
    let walked = walk(a11y, bus_name, ROOT_PATH, 0, limits, Keep::Showing).await?;
    let nodes = walked
        .nodes
        .into_iter()
        .map(|(node, states)| Shown {
            node,
            states: states.unwrap_or_default(),
        })
        .collect();
    Ok(ShownTree {
        nodes,
        complete: walked.complete,
    })
}
