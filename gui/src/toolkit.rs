//! The toolkit a program is built with (the `ToolkitName` and `Version` of its application
//! root), asked once and kept on the [`crate::program::Program`]: a program's toolkit does not
//! change while it runs, and finds and key steps decide by it on every step.
//!
//! Three decisions hang on it. GTK3's bridge (at-spi2-atk, which names itself "gtk") keeps its
//! cache as each object was when exported, so its tree is walked rather than read in bulk
//! ([`Toolkit::cache_is_kept_whole`]). GTK4's own bridge (named "GTK") marks its windows
//! `showing` and every element below them only `visible` ([`Toolkit::marks_showing`]). And
//! neither announces every child it adds, so only a Qt program's finds keep a read from one to the
//! next ([`Toolkit::announces_added_children`]).

use crate::program::ROOT_PATH;

/// A program's toolkit as its application root reports it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Toolkit {
    /// `ToolkitName`: "gtk" (GTK3 through at-spi2-atk), "GTK" (GTK4), "Qt", …
    pub name: String,
    /// `Version`, e.g. "4.8.3".
    pub version: String,
}

impl Toolkit {
    /// Ask the program at `bus_name`; `None` when it does not answer — its name above all: a
    /// name not had must not pass for a toolkit that is not GTK (whose finds would keep their
    /// reads), so it is asked again next time.
    pub(crate) async fn ask(a11y: &zbus::Connection, bus_name: &str) -> Option<Toolkit> {
        let application = atspi::proxy::application::ApplicationProxy::builder(a11y)
            .destination(bus_name.to_owned())
            .and_then(|b| b.path(ROOT_PATH))
            .ok()?
            .cache_properties(zbus::proxy::CacheProperties::No)
            .build()
            .await
            .ok()?;
        let (name, version) =
            futures_util::join!(application.toolkit_name(), application.version());
        Some(Toolkit {
            name: name.ok()?,
            version: version.unwrap_or_default(),
        })
    }

    /// The GTK major version, when the toolkit is GTK (the name compared without case: the
    /// two bridges spell it differently).
    fn gtk_major(&self) -> Option<u32> {
        if !self.name.eq_ignore_ascii_case("gtk") {
            return None;
        }
        self.version.split('.').next()?.parse().ok()
    }

    /// Whether its cache can be read as its tree: not GTK3's (see the module doc), whose file
    /// chooser's buttons stay nameless and whose boxes lack the children added later.
    pub fn cache_is_kept_whole(&self) -> bool {
        self.gtk_major() != Some(3)
    }

    /// Whether it announces every child it adds, so a read kept from before can be known stale
    /// by the events alone (`crate::kept`). Not GTK: GTK3's bridge (at-spi2-atk) announces a
    /// child (`children-changed`) only from the container's `add` signal, which
    /// `gtk_box_pack_start`, `gtk_grid_attach` and the like — how most GTK3 programs add widgets —
    /// do not emit; GTK4's own bridge (4.8.3, Debian 12's) announces no added child at all, by
    /// any container (`append`, `prepend`, `insert_child_after`, `Grid.attach`,
    /// `ListBox.append`, `FlowBox.append`, `Frame.set_child`, `Stack.add_child`, a hidden child
    /// shown: neither `children-changed` nor the cache's `AddAccessible`), only removals. A find
    /// answered from a kept read could then miss a second match and act on the first as if it
    /// were the only one, so a GTK program's finds read afresh every time; every GTK counts, no
    /// newer GTK4 being at hand to show otherwise. Qt announces a child it adds by its `showing`;
    /// it is the one toolkit shown to, so any other (or an empty name) reads afresh too.
    pub fn announces_added_children(&self) -> bool {
        self.name.eq_ignore_ascii_case("qt")
    }

    /// Whether it sets `showing` on the elements it shows, below its windows too. Not GTK4:
    /// its bridge marks only the windows `showing` (4.8.3, the GTK4 of this project's machines
    /// and Debian 12, checked on gnome-calculator and the GTK4 fixtures), so `visible` stands
    /// for it. Every 4.x shares the rule: no newer GTK4 is at hand to show otherwise, and the
    /// rule costs a GTK4 that did mark `showing` nothing but a `visible` element counting as
    /// shown, where the opposite mistake would fail every key step in one that does not.
    pub fn marks_showing(&self) -> bool {
        self.gtk_major() != Some(4)
    }

    /// Whether it marks a modal window `modal` over AT-SPI: GTK3 and GTK4 do (a save dialog,
    /// the file chooser), Qt 5 does not — only its X window says so (`crate::x11_modal`). A
    /// toolkit that marks them needs no X server round trips to find one on every find and
    /// every input step.
    pub fn marks_modal(&self) -> bool {
        self.name.eq_ignore_ascii_case("gtk")
    }
}

#[cfg(test)]
mod tests {
    use super::Toolkit;

    fn toolkit(name: &str, version: &str) -> Toolkit {
        Toolkit {
            name: name.into(),
            version: version.into(),
        }
    }

    #[test]
    fn gtk3_is_known_by_the_name_its_bridge_reports_and_walked() {
        assert!(!toolkit("gtk", "3.24.38").cache_is_kept_whole());
        assert!(!toolkit("GTK", "3.24.38").cache_is_kept_whole());
        assert!(toolkit("GTK", "4.8.3").cache_is_kept_whole());
        assert!(toolkit("Qt", "5.15.8").cache_is_kept_whole());
    }

    #[test]
    fn only_a_toolkit_that_is_not_gtk_is_taken_to_announce_the_children_it_adds() {
        assert!(!toolkit("gtk", "3.24.38").announces_added_children());
        assert!(!toolkit("GTK", "4.8.3").announces_added_children());
        assert!(!toolkit("GTK", "").announces_added_children());
        assert!(toolkit("Qt", "5.15.8").announces_added_children());
        assert!(!toolkit("", "").announces_added_children());
        assert!(!toolkit("Tk", "8.6").announces_added_children());
        assert!(toolkit("gtk", "3.24.38").marks_modal());
        assert!(toolkit("GTK", "4.8.3").marks_modal());
        assert!(!toolkit("Qt", "5.15.8").marks_modal());
        assert!(!toolkit("", "").marks_modal());
    }

    #[test]
    fn only_gtk4_is_taken_to_mark_nothing_below_its_windows_showing() {
        assert!(!toolkit("GTK", "4.8.3").marks_showing());
        assert!(!toolkit("GTK", "4.14.2").marks_showing());
        assert!(toolkit("gtk", "3.24.38").marks_showing());
        assert!(toolkit("Qt", "5.15.8").marks_showing());
        assert!(toolkit("GTK", "").marks_showing());
        assert!(toolkit("GTK", "40.1").marks_showing());
    }
}
