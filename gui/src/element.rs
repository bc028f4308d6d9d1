//! One accessible element of a program, and the reads every step makes of it.
//!
//! Why a handle of its own: finding, hit testing, input and waits all need the same few reads
//! (name, text, states, extents, parent, labels) of one object on one bus connection; the handle
//! keeps the bus name and path together and builds each proxy without a property cache, so
//! every read is a fresh answer from the program, never a value remembered from before a change.

use crate::error::GuiError;
use crate::program::ROOT_PATH;
use atspi::proxy::accessible::AccessibleProxy;
use atspi::proxy::component::ComponentProxy;
use atspi::proxy::text::TextProxy;
use atspi::{CoordType, RelationType, Role, StateSet};

/// A program's accessible object: where it is on the bus and what it was when found.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Element {
    /// The program's unique name on the accessibility bus.
    pub bus_name: String,
    /// Its object path.
    pub path: String,
    /// Its role when it was found.
    pub role: Role,
    /// Its accessible name when it was found.
    pub name: String,
}

/// A rectangle in pixels: origin, width and height.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Rect {
    /// Left edge.
    pub x: i32,
    /// Top edge.
    pub y: i32,
    /// Width.
    pub width: i32,
    /// Height.
    pub height: i32,
}

impl Rect {
    /// The centre point (rounded down).
    pub fn centre(&self) -> (i32, i32) {
        (self.x + self.width / 2, self.y + self.height / 2)
    }

    /// Whether the point is inside.
    pub fn contains(&self, x: i32, y: i32) -> bool {
        x >= self.x && y >= self.y && x < self.x + self.width && y < self.y + self.height
    }
}

/// How a bus call's failure becomes a coded error.
fn bus(call: &'static str) -> impl Fn(zbus::Error) -> GuiError {
    move |source| GuiError::bus(call, source)
}

impl Element {
    /// An element at `path` of the program at `bus_name`, with its role and name read now.
    pub async fn at(
        a11y: &zbus::Connection,
        bus_name: &str,
        path: &str,
    ) -> Result<Element, GuiError> {
        let mut element = Element {
            bus_name: bus_name.to_owned(),
            path: path.to_owned(),
            role: Role::Invalid,
            name: String::new(),
        };
        let accessible = element.accessible(a11y).await?;
        element.role = accessible.get_role().await.map_err(bus("GetRole"))?;
        element.name = accessible.name().await.map_err(bus("Name"))?;
        Ok(element)
    }

    /// `push button "7 7"` — how messages name it.
    pub fn describe(&self) -> String {
        format!("{} {:?}", self.role.name(), self.name)
    }

    /// Its `Accessible` interface (no property cache).
    pub(crate) async fn accessible<'c>(
        &self,
        a11y: &'c zbus::Connection,
    ) -> Result<AccessibleProxy<'c>, GuiError> {
        AccessibleProxy::builder(a11y)
            .destination(self.bus_name.clone())
            .map_err(bus("Accessible"))?
            .path(self.path.clone())
            .map_err(bus("Accessible"))?
            .cache_properties(zbus::proxy::CacheProperties::No)
            .build()
            .await
            .map_err(bus("Accessible"))
    }

    /// Its `Component` interface (extents, hit tests).
    pub(crate) async fn component<'c>(
        &self,
        a11y: &'c zbus::Connection,
    ) -> Result<ComponentProxy<'c>, GuiError> {
        ComponentProxy::builder(a11y)
            .destination(self.bus_name.clone())
            .map_err(bus("Component"))?
            .path(self.path.clone())
            .map_err(bus("Component"))?
            .cache_properties(zbus::proxy::CacheProperties::No)
            .build()
            .await
            .map_err(bus("Component"))
    }

    /// Its accessible name, read now.
    pub async fn read_name(&self, a11y: &zbus::Connection) -> Result<String, GuiError> {
        self.accessible(a11y)
            .await?
            .name()
            .await
            .map_err(bus("Name"))
    }

    /// Its text (the `Text` interface's whole content), read now; its name when it has no text.
    pub async fn read_text(&self, a11y: &zbus::Connection) -> Result<String, GuiError> {
        let text = TextProxy::builder(a11y)
            .destination(self.bus_name.clone())
            .map_err(bus("Text"))?
            .path(self.path.clone())
            .map_err(bus("Text"))?
            .cache_properties(zbus::proxy::CacheProperties::No)
            .build()
            .await
            .map_err(bus("Text"))?;
        match text.get_text(0, -1).await {
            // GTK 4.8 takes the end -1 ("to the end") for 0 and answers "" for every label and
            // entry: an empty answer is asked again up to the count of characters it reports.
            Ok(content) if content.is_empty() => match text.character_count().await {
                Ok(count) if count > 0 => text
                    .get_text(0, count)
                    .await
                    .map_err(|e| GuiError::bus("GetText", e)),
                Ok(_) => Ok(content),
                // Only a toolkit that refuses the count leaves the empty text standing; a call
                // that timed out or a program gone is no reading of "nothing shown".
                Err(source) => {
                    let error = GuiError::bus("CharacterCount", source);
                    match crate::modal::call_failure(&error) {
                        crate::modal::CallFailure::Refused => Ok(content),
                        _ => Err(error),
                    }
                }
            },
            Ok(content) => Ok(content),
            // No `Text` interface: the name is what it shows.
            Err(zbus::Error::MethodError(..)) => self.read_name(a11y).await,
            Err(source) => Err(GuiError::bus("GetText", source)),
        }
    }

    /// Its states, read now.
    pub async fn read_states(&self, a11y: &zbus::Connection) -> Result<StateSet, GuiError> {
        let accessible = self.accessible(a11y).await?;
        accessible.get_state().await.map_err(bus("GetState"))
    }

    /// Its extents as the toolkit reports them in "screen" coordinates (GTK4 4.8: relative to
    /// its window's content; `crate::window` corrects them).
    pub async fn extents(&self, a11y: &zbus::Connection) -> Result<Rect, GuiError> {
        let component = self.component(a11y).await?;
        let (x, y, width, height) = component
            .get_extents(CoordType::Screen)
            .await
            .map_err(bus("GetExtents"))?;
        Ok(Rect {
            x,
            y,
            width,
            height,
        })
    }

    /// Ask the toolkit to give it the keyboard focus (`Component.GrabFocus`): whether the
    /// toolkit says it did. A toolkit that refuses the call (GTK4 4.8 answers `NotSupported`)
    /// is `false`, not an error; a gone object or program and a call that timed out are
    /// (`crate::modal::call_failure`).
    pub async fn grab_focus(&self, a11y: &zbus::Connection) -> Result<bool, GuiError> {
        match self.component(a11y).await?.grab_focus().await {
            Ok(done) => Ok(done),
            Err(source) => {
                let error = GuiError::bus("GrabFocus", source);
                match crate::modal::call_failure(&error) {
                    crate::modal::CallFailure::Refused => Ok(false),
                    _ => Err(error),
                }
            }
        }
    }

    /// Its parent's path, `None` at the application's root (or when the parent is on another
    /// bus): one call, for walks that need only where they are.
    pub async fn parent_path(&self, a11y: &zbus::Connection) -> Result<Option<String>, GuiError> {
        let parent = self
            .accessible(a11y)
            .await?
            .parent()
            .await
            .map_err(bus("Parent"))?;
        if parent.is_null() || parent.name_as_str() != Some(self.bus_name.as_str()) {
            return Ok(None);
        }
        Ok(Some(parent.path_as_str().to_owned()))
    }

    /// Its top-level ancestor: the window (a frame, window or dialog), the application
    /// root's child; itself when it is one.
    pub async fn window(&self, a11y: &zbus::Connection) -> Result<Element, GuiError> {
        let mut at = self.path.clone();
        // Bounded: a toolkit bug (a cycle) cannot hang the walk.
        for _ in 0..64 {
            let here = Element {
                path: at.clone(),
                ..self.clone()
            };
            match here.parent_path(a11y).await? {
                Some(parent) if parent != ROOT_PATH => at = parent,
                _ => break,
            }
        }
        if at == self.path {
            return Ok(self.clone());
        }
        Element::at(a11y, &self.bus_name, &at).await
    }

    /// Whether `ancestor` is this element or one of its ancestors (by path).
    pub async fn is_within(
        &self,
        a11y: &zbus::Connection,
        ancestor: &Element,
    ) -> Result<bool, GuiError> {
        let mut at = self.path.clone();
        for _ in 0..64 {
            if at == ancestor.path {
                return Ok(true);
            }
            let here = Element {
                path: at.clone(),
                ..self.clone()
            };
            match here.parent_path(a11y).await? {
                Some(parent) => at = parent,
                None => return Ok(false),
            }
        }
        Ok(false)
    }

    /// The paths of the elements it labels (its `label-for` relation) in its own program.
    pub async fn labelled_paths(&self, a11y: &zbus::Connection) -> Result<Vec<String>, GuiError> {
        let relations = self
            .accessible(a11y)
            .await?
            .get_relation_set()
            .await
            .map_err(bus("GetRelationSet"))?;
        Ok(relations
            .into_iter()
            .filter(|(kind, _)| *kind == RelationType::LabelFor)
            .flat_map(|(_, targets)| targets)
            .filter(|t| t.name_as_str() == Some(self.bus_name.as_str()))
            .map(|t| t.path_as_str().to_owned())
            .collect())
    }

    /// The elements that label it (its `labelled-by` relation): each one's bus name and path.
    pub(crate) async fn labelled_by(
        &self,
        a11y: &zbus::Connection,
    ) -> Result<Vec<(String, String)>, GuiError> {
        let relations = self
            .accessible(a11y)
            .await?
            .get_relation_set()
            .await
            .map_err(bus("GetRelationSet"))?;
        Ok(relations
            .into_iter()
            .filter(|(kind, _)| *kind == RelationType::LabelledBy)
            .flat_map(|(_, targets)| targets)
            .filter_map(|t| Some((t.name_as_str()?.to_owned(), t.path_as_str().to_owned())))
            .collect())
    }

    /// The names of the elements that label it (its `labelled-by` relation).
    pub async fn label_names(&self, a11y: &zbus::Connection) -> Result<Vec<String>, GuiError> {
        label_texts(a11y, &self.labelled_by(a11y).await?).await
    }
}

/// What the labels at `labels` (bus name and path each) say: their text, else their name.
pub(crate) async fn label_texts(
    a11y: &zbus::Connection,
    labels: &[(String, String)],
) -> Result<Vec<String>, GuiError> {
    let mut names = Vec::new();
    for (bus_name, path) in labels {
        let label = Element::at(a11y, bus_name, path).await?;
        let text = label.read_text(a11y).await?;
        names.push(if text.is_empty() { label.name } else { text });
    }
    Ok(names)
}
