//! Runtime failure codes (`test.assert.*`, `test.driver.web.*`, `test.run.*`) and their classes.
//!
//! Admission codes (`test.spec.*`) live in `a3s-test-lang`; the spec-class codes here are their
//! runtime halves: [`FailureCode::EvidencePathEscape`] of the evidence-path rule (a symlink can
//! only be detected on disk) and [`FailureCode::EnvUnset`] of `env("NAME")` (a variable is read
//! only when its step runs). Codes are a typed enum so every result and reporter agrees on
//! the spelling, and so the failure class is derived, never guessed from a string.

use serde::{Deserialize, Serialize};

/// Which party a failure blames. Kept separate in every result (`docs/acl.md` §13).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum FailureClass {
    /// The product did not match the expectation (`test.assert.*`, target not found …).
    Product,
    /// The suite itself is wrong or asks for something impossible (`test.spec.*`).
    Specification,
    /// The browser, driver or runner failed (`test.driver.web.*` infrastructure, `test.run.*`).
    Infrastructure,
    /// Tearing down failed after the verdict was known.
    Cleanup,
}

a3s_test_lang::define_codes! {
    /// A stable runtime failure code.
    pub enum FailureCode: fn class -> FailureClass {
        /// Visible page text did not contain the expected text.
        TextMismatch => "test.assert.text_mismatch", FailureClass::Product;
        /// The URL was not the expected one.
        UrlMismatch => "test.assert.url_mismatch", FailureClass::Product;
        /// The target was expected visible and is not.
        NotVisible => "test.assert.not_visible", FailureClass::Product;
        /// The target was expected hidden and a visible match exists.
        NotHidden => "test.assert.not_hidden", FailureClass::Product;
        /// The target does not intersect the viewport.
        NotInViewport => "test.assert.not_in_viewport", FailureClass::Product;
        /// Something covers the target's centre.
        NotPointerReachable => "test.assert.not_pointer_reachable", FailureClass::Product;
        /// Rendered text (or texts) differ.
        RenderedTextMismatch => "test.assert.rendered_text_mismatch", FailureClass::Product;
        /// Visible match count differs.
        CountMismatch => "test.assert.count_mismatch", FailureClass::Product;
        /// A control's value differs.
        ValueMismatch => "test.assert.value_mismatch", FailureClass::Product;
        /// Selected option values differ.
        SelectionMismatch => "test.assert.selection_mismatch", FailureClass::Product;
        /// A control or semantic state differs.
        StateMismatch => "test.assert.state_mismatch", FailureClass::Product;
        /// A layout relation does not hold.
        LayoutMismatch => "test.assert.layout_mismatch", FailureClass::Product;
        /// Viewport coverage outside the bound.
        CoverageMismatch => "test.assert.coverage_mismatch", FailureClass::Product;
        /// A later sample of a stability window was false.
        Unstable => "test.assert.unstable", FailureClass::Product;
        /// A terminal's cursor was not at the expected cell.
        CursorMismatch => "test.assert.cursor_mismatch", FailureClass::Product;
        /// A terminal program did not end with the expected exit code (or had not ended).
        ExitCodeMismatch => "test.assert.exit_code_mismatch", FailureClass::Product;
        /// The page did not look like its baseline image within the expect timeout: more pixels
        /// differ than `max_diff_pixels` / `max_diff_ratio` allow (expected, actual and diff
        /// images are kept).
        ScreenshotMismatch => "test.assert.screenshot_mismatch", FailureClass::Product;
        /// The accessibility tree did not match the written `aria_snapshot` outline within the
        /// expect timeout.
        AriaSnapshotMismatch => "test.assert.aria_snapshot_mismatch", FailureClass::Product;
        /// No request or response matching a network `wait` (URL, and status when given) came
        /// since the action before it began, within the expect timeout.
        NetworkNotSeen => "test.assert.network_not_seen", FailureClass::Product;
        /// A `request` step's answer had another status than expected (any 2xx when none is
        /// written), was not JSON, or did not hold the expected value at its `json_path`.
        ApiMismatch => "test.assert.api_mismatch", FailureClass::Product;
        /// A `check_contract` step found an expectation of the reviewed contract missing or different on the page.
        ContractMismatch => "test.assert.contract_mismatch", FailureClass::Product;
        /// A `request` step got no answer: the server was not reached, broke HTTP or TLS, showed
        /// a certificate this machine does not trust (or the machine trusts no root), answered
        /// more than the body bound or too late, or the URL is not one the driver sends to.
        RequestFailed => "test.driver.web.request_failed", FailureClass::Product;
        /// No element matched the target.
        TargetNotFound => "test.driver.web.target_not_found", FailureClass::Product;
        /// Several elements matched the target.
        TargetAmbiguous => "test.driver.web.target_ambiguous", FailureClass::Product;
        /// One match, but never visible, enabled and stable in time.
        TargetNotActionable => "test.driver.web.target_not_actionable", FailureClass::Product;
        /// One visible, enabled, stable match, but another element stayed on top of it at the
        /// action point (or the point lies in a cross-origin frame): the pointer would not reach it.
        TargetCovered => "test.driver.web.target_covered", FailureClass::Product;
        /// A navigation failed (DNS, refused, HTTP error page is not a failure).
        NavigationFailed => "test.driver.web.navigation_failed", FailureClass::Product;
        /// No dialog was open for a dialog operation.
        NoDialog => "test.driver.web.no_dialog", FailureClass::Product;
        /// No tab with that label or index.
        TabNotFound => "test.driver.web.tab_not_found", FailureClass::Product;
        /// The frame target is not an iframe, or its document is cross-origin.
        FrameUnavailable => "test.driver.web.frame_unavailable", FailureClass::Product;
        /// The click did not start a download in time.
        DownloadMissing => "test.driver.web.download_missing", FailureClass::Product;
        /// A JavaScript dialog the suite did not handle blocks the page (add a `dialog` step).
        DialogBlocking => "test.driver.web.dialog_blocking", FailureClass::Product;
        /// The page has a Test Kit bridge whose handshake is incompatible (protocol, package,
        /// SDK version range or capabilities).
        PageContextIncompatible => "test.driver.web.page_context_incompatible", FailureClass::Product;
        /// The Page Context revision kept changing while an observation was taken (retried once).
        PageContextChanged => "test.driver.web.page_context_changed", FailureClass::Product;
        /// The browser could not be launched or attached.
        BrowserLaunch => "test.driver.web.browser_launch", FailureClass::Infrastructure;
        /// The browser process died or the CDP connection dropped.
        BrowserCrashed => "test.driver.web.browser_crashed", FailureClass::Infrastructure;
        /// The Selenium Grid (`run --grid`) did not answer its status within the bound, was not
        /// ready, showed a certificate this machine does not trust, or refused every new session,
        /// so no scenario could run on it.
        GridUnavailable => "test.driver.web.grid_unavailable", FailureClass::Infrastructure;
        /// A new Grid session waited in the Grid's queue past the run's queue bound
        /// (`--grid-queue-timeout-ms`): every slot stayed busy.
        GridQueueTimeout => "test.driver.web.grid_queue_timeout", FailureClass::Infrastructure;
        /// The Grid session this scenario ran on was lost (its node died, or the Grid ended it)
        /// while the run's other sessions remained; retried on another session when
        /// `--retries` allows.
        GridSessionLost => "test.driver.web.grid_session_lost", FailureClass::Infrastructure;
        /// A CDP command did not answer within its deadline.
        CommandTimeout => "test.driver.web.command_timeout", FailureClass::Infrastructure;
        /// A CDP command answered with an error the driver did not expect.
        Protocol => "test.driver.web.protocol", FailureClass::Infrastructure;
        /// A `css()` selector is not valid CSS.
        InvalidSelector => "test.driver.web.invalid_selector", FailureClass::Specification;
        /// `har`/`trace` stop without a running recording.
        CaptureNotStarted => "test.driver.web.capture_not_started", FailureClass::Specification;
        /// The driver cannot perform this step (capability check).
        Unsupported => "test.driver.web.unsupported", FailureClass::Specification;
        /// The step would operate the Test Kit Review Overlay (point at it, or type into its
        /// focused control): the overlay is the reviewer's, never an agent's or a suite's.
        ReviewOverlay => "test.driver.web.review_overlay", FailureClass::Specification;
        /// An evidence path resolves outside the artifact folder (symlink) or cannot be written.
        EvidencePathEscape => "test.spec.evidence_path", FailureClass::Specification;
        /// An evidence path over the length or depth limits (checked before any folder is made).
        EvidencePathLimit => "test.spec.evidence_path_limit", FailureClass::Specification;
        /// An `env("NAME")` text whose variable is not set (or not UTF-8) when the step runs: the
        /// message names the variable and how to set it, never a value.
        EnvUnset => "test.spec.env_unset", FailureClass::Specification;
        /// An upload path does not exist or escapes the working directory.
        UploadPath => "test.driver.web.upload_path", FailureClass::Specification;
        /// See `TuiCode::ProgramNotFound` (`a3s-test-tui`, the registry of `test.driver.tui.*`).
        TuiProgramNotFound => "test.driver.tui.program_not_found", FailureClass::Specification;
        /// See `TuiCode::WorkingDirectory`.
        TuiWorkingDirectory => "test.driver.tui.working_directory", FailureClass::Specification;
        /// See `TuiCode::SpawnFailed`.
        TuiSpawnFailed => "test.driver.tui.spawn_failed", FailureClass::Infrastructure;
        /// See `TuiCode::ExitedEarly`.
        TuiExitedEarly => "test.driver.tui.exited_early", FailureClass::Product;
        /// See `TuiCode::OutputBudget`.
        TuiOutputBudget => "test.driver.tui.output_budget", FailureClass::Product;
        /// See `TuiCode::WaitTimeout`.
        TuiWaitTimeout => "test.driver.tui.wait_timeout", FailureClass::Product;
        /// See `TuiCode::BadKey`.
        TuiBadKey => "test.driver.tui.bad_key", FailureClass::Specification;
        /// See `TuiCode::BadSize`.
        TuiBadSize => "test.driver.tui.bad_size", FailureClass::Specification;
        /// See `TuiCode::NotRunning`.
        TuiNotRunning => "test.driver.tui.not_running", FailureClass::Product;
        /// See `TuiCode::InputBlocked`.
        TuiInputBlocked => "test.driver.tui.input_blocked", FailureClass::Product;
        /// See `TuiCode::Io`.
        TuiIo => "test.driver.tui.io", FailureClass::Infrastructure;
        /// See `GuiCode::DesktopMissing` (`a3s-test-gui`, the registry of `test.driver.gui.*`).
        GuiDesktopMissing => "test.driver.gui.desktop_missing", FailureClass::Infrastructure;
        /// See `GuiCode::DesktopFailed`.
        GuiDesktopFailed => "test.driver.gui.desktop_failed", FailureClass::Infrastructure;
        /// See `GuiCode::ProgramNotFound`.
        GuiProgramNotFound => "test.driver.gui.program_not_found", FailureClass::Specification;
        /// See `GuiCode::WorkingDirectory`.
        GuiWorkingDirectory => "test.driver.gui.working_directory", FailureClass::Specification;
        /// See `GuiCode::SpawnFailed`.
        GuiSpawnFailed => "test.driver.gui.spawn_failed", FailureClass::Infrastructure;
        /// See `GuiCode::ExitedEarly`.
        GuiExitedEarly => "test.driver.gui.exited_early", FailureClass::Product;
        /// See `GuiCode::NotAccessible`.
        GuiNotAccessible => "test.driver.gui.not_accessible", FailureClass::Product;
        /// See `GuiCode::Bus`.
        GuiBus => "test.driver.gui.bus", FailureClass::Infrastructure;
        /// See `GuiCode::UnknownRole`.
        GuiUnknownRole => "test.driver.gui.unknown_role", FailureClass::Specification;
        /// See `GuiCode::TargetNotFound`.
        GuiTargetNotFound => "test.driver.gui.target_not_found", FailureClass::Product;
        /// See `GuiCode::TargetAmbiguous`.
        GuiTargetAmbiguous => "test.driver.gui.target_ambiguous", FailureClass::Product;
        /// See `GuiCode::TargetNotVisible`.
        GuiTargetNotVisible => "test.driver.gui.target_not_visible", FailureClass::Product;
        /// See `GuiCode::TargetCovered`.
        GuiTargetCovered => "test.driver.gui.target_covered", FailureClass::Product;
        /// See `GuiCode::WindowGone`.
        GuiWindowGone => "test.driver.gui.window_gone", FailureClass::Product;
        /// See `GuiCode::OptionNotFound`.
        GuiOptionNotFound => "test.driver.gui.option_not_found", FailureClass::Product;
        /// See `GuiCode::NotSelectable`.
        GuiNotSelectable => "test.driver.gui.not_selectable", FailureClass::Specification;
        /// See `GuiCode::SelectionUnchanged`.
        GuiSelectionUnchanged => "test.driver.gui.selection_unchanged", FailureClass::Product;
        /// See `GuiCode::ActionMissing`.
        GuiActionMissing => "test.driver.gui.action_missing", FailureClass::Product;
        /// See `GuiCode::BadKey`.
        GuiBadKey => "test.driver.gui.bad_key", FailureClass::Specification;
        /// See `GuiCode::KeyUnmapped`.
        GuiKeyUnmapped => "test.driver.gui.key_unmapped", FailureClass::Specification;
        /// See `GuiCode::WaitTimeout`.
        GuiWaitTimeout => "test.driver.gui.wait_timeout", FailureClass::Product;
        /// See `GuiCode::NotFocusable`.
        GuiNotFocusable => "test.driver.gui.not_focusable", FailureClass::Specification;
        /// See `GuiCode::X11`.
        GuiX11 => "test.driver.gui.x11", FailureClass::Infrastructure;
        /// See `GuiCode::BadTarget`.
        GuiBadTarget => "test.driver.gui.bad_target", FailureClass::Specification;
        /// Writing evidence to disk failed.
        EvidenceWrite => "test.run.evidence_write", FailureClass::Infrastructure;
        /// A folder or file the run itself reads or writes under the project's `.a3s-test` (the
        /// project file, the artifact folders, `last-run.json`) is a symbolic link or not a real
        /// folder or regular file: nothing was read or written through it.
        UnsafePath => "test.run.unsafe_path", FailureClass::Infrastructure;
        /// The scenario deadline passed: a step, a `wait`, an `expect` or an action waiting for its
        /// target ran into it (the message says what was awaited).
        Timeout => "test.run.timeout", FailureClass::Infrastructure;
        /// The run was cancelled (Ctrl+C).
        Cancelled => "test.run.cancelled", FailureClass::Infrastructure;
        /// The scenario's surface has no driver in this run (a surface the run was not given a
        /// driver for).
        UnsupportedSurface => "test.run.unsupported_surface", FailureClass::Specification;
        /// The dev server did not start, answer in time, or present a certificate the probe accepts.
        DevServer => "test.run.dev_server", FailureClass::Infrastructure;
        /// Closing a context, browser or server failed or left a process behind.
        CleanupFailed => "test.run.cleanup_failed", FailureClass::Cleanup;
        /// The scenario's `storage_state` file does not exist when its context opens: the
        /// scenario that saves it did not run first (name it in `depends_on`).
        StorageStateMissing => "test.run.storage_state_missing", FailureClass::Specification;
        /// The `storage_state` file is not a storage state this toolchain reads, or could not be
        /// loaded into the context.
        StorageStateInvalid => "test.run.storage_state_invalid", FailureClass::Specification;
        /// The `route_from_har` file is missing, unreadable, too large, not JSON or not a HAR;
        /// no route was set and nothing was written.
        HarInvalid => "test.run.har_invalid", FailureClass::Specification;
        /// `save_storage_state` could not read the context's storage or write its file.
        StorageStateWrite => "test.run.storage_state_write", FailureClass::Infrastructure;
        /// `save_storage_state { indexed_db = true }` met an IndexedDB value the state file cannot
        /// hold (the message names its database, store and kind), or the databases would not fit
        /// in a state file: nothing was written.
        StorageStateUnencodable => "test.run.storage_state_unencodable", FailureClass::Specification;
        /// A `screenshot` expectation has no baseline yet: the actual image is kept (and written
        /// as the baseline outside CI); run again, or with `--update-snapshots`.
        SnapshotMissing => "test.run.snapshot_missing", FailureClass::Specification;
        /// A baseline is not a PNG this toolchain reads (or is a link, or too large): nothing
        /// was compared, and it is never overwritten.
        SnapshotInvalid => "test.run.snapshot_invalid", FailureClass::Specification;
        /// A baseline, or the suite file an `aria_snapshot` update rewrites, could not be written.
        SnapshotWrite => "test.run.snapshot_write", FailureClass::Infrastructure;
    }
}

// The registry of `test.driver.web.page_context_diff.*` codes, one per rule of the
// `a3s.test.page-context-diff/1` protocol: the driver owns the `test.driver.web.*` family even
// though the re-validation of a delta runs in the agent session (see docs/agent.md).
a3s_test_lang::define_codes! {
    /// Which rule a Page Context delta broke.
    pub enum DiffRule {
        /// The response carries no delta at all.
        Missing => "test.driver.web.page_context_diff.missing";
        /// The delta, or a field of it, is not the documented shape.
        Shape => "test.driver.web.page_context_diff.shape";
        /// `protocol` is not `a3s.test.page-context-diff/1`.
        Protocol => "test.driver.web.page_context_diff.protocol";
        /// `fromRevision` differs from the caller's baseline.
        FromRevision => "test.driver.web.page_context_diff.from_revision";
        /// `toRevision` is below `fromRevision`, or equal without being an empty no-op.
        Regression => "test.driver.web.page_context_diff.regression";
        /// `toRevision` differs from the response's own `revision`.
        ToRevision => "test.driver.web.page_context_diff.to_revision";
        /// `status` is neither `complete` nor `reset_required`.
        Status => "test.driver.web.page_context_diff.status";
        /// An id appears twice in one list.
        Duplicate => "test.driver.web.page_context_diff.duplicate_id";
        /// A list is not sorted by UTF-8 bytes.
        Unsorted => "test.driver.web.page_context_diff.unsorted_ids";
        /// A removed id is also changed (listed as a node) or missing from the invalidated ids.
        Overlap => "test.driver.web.page_context_diff.changed_removed_overlap";
        /// More than 10,000 ids (nodes + components) in one delta.
        TooMany => "test.driver.web.page_context_diff.too_many_ids";
        /// The revision advanced but `ui` is not invalidated.
        Ui => "test.driver.web.page_context_diff.ui_not_invalidated";
        /// `reset_required` without every flag set, or with ids; or `complete` with `all` set.
        ResetShape => "test.driver.web.page_context_diff.reset_shape";
    }
}

// The `test.run.*` refusals of `run`'s selection flags, before anything is launched (exit 2).
a3s_test_lang::define_codes! {
    /// The stable codes of a run refused for its selection.
    pub enum SelectionCode {
        /// `--forbid-only` (on by default when `CI` is set) and a scenario is annotated `only = true`.
        ForbidOnly => "test.run.forbid_only";
        /// `--grep` or `--grep-invert` is not a valid regular expression.
        InvalidGrep => "test.run.invalid_grep";
        /// A `depends_on` entry names another suite's scenario that no suite of the run defines.
        UnknownDependency => "test.run.unknown_dependency";
        /// `depends_on` entries across suites form a cycle.
        DependencyCycle => "test.run.dependency_cycle";
    }
}

// The `test.run.merge_*` codes of `merge-reports`: part of the `test.run.*` family, which this
// module owns, so the runner's merge and the reporters spell them from one place.
a3s_test_lang::define_codes! {
    /// The stable codes of `merge-reports` problems.
    pub enum MergeCode {
        /// A file cannot be read or is not a run result.
        Input => "test.run.merge_input";
        /// A result of another format version.
        Version => "test.run.merge_version";
        /// A result of a run without `--shard`.
        NotSharded => "test.run.merge_not_sharded";
        /// Shards of different runs, or a scenario in two shards.
        Mismatch => "test.run.merge_mismatch";
        /// The same shard given twice.
        DuplicateShard => "test.run.merge_duplicate_shard";
        /// A shard with no result (a warning: the merge still reports, and exits 2).
        MissingShard => "test.run.merge_missing_shard";
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_round_trip_and_are_unique() {
        let mut seen = std::collections::HashSet::new();
        for code in FailureCode::ALL {
            assert!(seen.insert(code.as_str()));
            assert_eq!(FailureCode::from_name(code.as_str()), Some(*code));
        }
        assert_eq!(FailureCode::TargetNotFound.class(), FailureClass::Product);
        assert_eq!(
            FailureCode::BrowserCrashed.class(),
            FailureClass::Infrastructure
        );
    }
}
