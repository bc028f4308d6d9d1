//! The one element a step is about, for a failure's record: what a reviewer is shown on the
//! page when the failure becomes a candidate.

use a3s_test_lang::ir::{Action, Target, WaitCondition};

/// The element `action` acts on or checks (the first one for a two-target step: a drag's
/// source, a layout check's subject); `None` for a step about no element (`navigate`, a text or
/// URL condition, a screenshot) and for an observation-bound ref, which means nothing later.
pub fn step_target(action: &Action) -> Option<&Target> {
    let target = match action {
        Action::Click { target, .. }
        | Action::DoubleClick { target, .. }
        | Action::ContextClick { target, .. }
        | Action::Check { target, .. }
        | Action::Uncheck { target, .. }
        | Action::Download { target, .. }
        | Action::Hover { target, .. }
        | Action::Fill { target, .. }
        | Action::Type { target, .. }
        | Action::Select { target, .. }
        | Action::Focus { target }
        | Action::Upload { target, .. } => Some(target),
        Action::Drag { source, .. } => Some(source),
        Action::Press { target, .. } | Action::Wheel { target, .. } => target.as_ref(),
        Action::Expect { expectation } => expectation.condition.targets().first().copied(),
        Action::Wait {
            condition: WaitCondition::Page(page),
        } => page.target(),
        _ => None,
    }?;
    (!matches!(target, Target::Ref { .. })).then_some(target)
}
