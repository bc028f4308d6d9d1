//! Whether a step's input ended the program: an OK in a dialog that closes the program's last
//! window (`yad --form`) ends the process a few milliseconds after the click is handled, and
//! the step must succeed and record how it ended — not fail, and not leave the next step
//! guessing.
//!
//! Why questions to the program and not a pause: once the X server has handled the input (the
//! round trip every action ends with), the events are queued in the program, and a call to it
//! on the accessibility bus is answered by the same main loop. That loop handles *one* X event
//! per iteration (GDK) and answers calls in between, so one answer does not prove the click was
//! handled: yad answered a first call and exited a millisecond later. So calls are sent one
//! after the other, each after the last is answered — every answer needs another iteration —
//! until [`ITERATIONS`] are answered (a click is up to six events: motion, crossing, press,
//! release) or the program stops answering, the bus reporting the peer gone; its exit is then
//! awaited with a bound. Nothing sleeps; a program that goes on costs ~1 ms.

use crate::desktop::CALL_WITHIN;
use crate::error::ProgramExit;
use crate::program::{Program, ROOT_PATH};
use atspi::proxy::accessible::AccessibleProxy;
use std::time::Duration;

/// How long a program that left the bus may take to exit before it counts as still running.
const GONE_WITHIN: Duration = Duration::from_secs(2);

/// Calls answered one after the other before a program counts as going on.
const ITERATIONS: usize = 8;

/// How the program ended when the input just sent ended it; `None` while it runs.
pub async fn after_input(a11y: &zbus::Connection, program: &Program) -> Option<ProgramExit> {
    if let Some(exit) = program.exit() {
        return Some(exit);
    }
    let answered = async {
        let root = AccessibleProxy::builder(a11y)
            .destination(program.bus_name().to_owned())?
            .path(ROOT_PATH)?
            .cache_properties(zbus::proxy::CacheProperties::No)
            .build()
            .await?;
        for _ in 0..ITERATIONS {
            root.child_count().await?;
        }
        Ok::<_, zbus::Error>(())
    };
    tokio::select! {
        exit = program.exited(CALL_WITHIN) => exit,
        answer = answered => match answer {
            Ok(_) => program.exit(),
            // The program left the bus: it is ending (or ended) — read how.
            Err(_) => program.exited(GONE_WITHIN).await,
        },
    }
}
