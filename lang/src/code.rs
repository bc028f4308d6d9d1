//! The registry of admission diagnostic codes (`test.spec.*`).
//!
//! Every static error has one stable code. Codes are a typed enum so a new one cannot be used
//! without a message hint and documentation entry; `docs/acl.md` is checked against [`Code::ALL`]
//! by a test, and each code has a fixture under `lang/tests/fixtures/codes/`.

/// A registry of stable dotted codes, implemented by every enum [`define_codes!`] generates.
///
/// Each code family (`test.spec.*` here, `test.driver.web.*` in the driver, `test.session.*` in
/// the runner, `test.session.repair_*` in the ledger, …) lives in the crate that owns it; the
/// trait lets one test walk every family and check that each code is documented in `docs/*.md`.
pub trait StableCode: Copy + Eq + std::fmt::Debug + 'static {
    /// Every code of the family, in registry order.
    const ALL: &'static [Self];

    /// The stable dotted name, e.g. `test.spec.unknown_attribute`.
    fn as_str(self) -> &'static str;

    /// The one-line documentation written next to the code in its registry.
    fn doc(self) -> &'static str;

    /// Look a code up by its dotted name; `None` for a name the family does not define.
    fn from_name(name: &str) -> Option<Self> {
        Self::ALL.iter().copied().find(|c| c.as_str() == name)
    }
}

#[doc(hidden)]
pub use serde as __serde;

/// Define one code family: the enum, `ALL`, `as_str`, `from_name`, `doc`, `Display`, serde
/// (as the dotted string; an unknown name is an error, never a guess) and [`StableCode`].
///
/// One macro for every family so a code cannot exist without its spelling, its place in `ALL`
/// and its documentation. The optional `: fn name -> Type` after the enum name adds one
/// per-code datum (a hint, a failure class) as a `const fn`, written on the code's own line:
///
/// ```
/// a3s_test_lang::define_codes! {
///     /// Codes of an example family.
///     pub enum Example: fn weight -> u8 {
///         /// The first code.
///         First => "test.example.first", 1;
///     }
/// }
/// assert_eq!(Example::First.as_str(), "test.example.first");
/// assert_eq!(Example::First.weight(), 1);
/// assert_eq!(Example::from_name("test.example.first"), Some(Example::First));
/// ```
#[macro_export]
macro_rules! define_codes {
    (
        $(#[$meta:meta])*
        $vis:vis enum $name:ident : fn $data_fn:ident -> $data_ty:ty {
            $( $(#[doc = $doc:literal])+ $variant:ident => $code:literal, $data:expr; )*
        }
    ) => {
        $crate::define_codes! {
            $(#[$meta])*
            $vis enum $name {
                $( $(#[doc = $doc])+ $variant => $code; )*
            }
        }

        impl $name {
            /// The per-code datum written next to each code in the registry.
            pub const fn $data_fn(self) -> $data_ty {
                match self { $( $name::$variant => $data, )* }
            }
        }
    };
    (
        $(#[$meta:meta])*
        $vis:vis enum $name:ident {
            $( $(#[doc = $doc:literal])+ $variant:ident => $code:literal; )*
        }
    ) => {
        $(#[$meta])*
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
        $vis enum $name {
            $( $(#[doc = $doc])+ $variant, )*
        }

        impl $name {
            /// Every code, in registry order.
            pub const ALL: &'static [$name] = &[ $( $name::$variant, )* ];

            /// The stable dotted name.
            pub const fn as_str(self) -> &'static str {
                match self { $( $name::$variant => $code, )* }
            }

            /// The documentation written next to the code in its registry.
            pub fn doc(self) -> &'static str {
                match self { $( $name::$variant => concat!($($doc),+).trim_start(), )* }
            }

            /// Look a code up by its dotted name.
            pub fn from_name(name: &str) -> Option<$name> {
                match name { $( $code => Some($name::$variant), )* _ => None }
            }
        }

        impl $crate::code::StableCode for $name {
            const ALL: &'static [$name] = $name::ALL;

            fn as_str(self) -> &'static str {
                $name::as_str(self)
            }

            fn doc(self) -> &'static str {
                $name::doc(self)
            }

            fn from_name(name: &str) -> Option<$name> {
                $name::from_name(name)
            }
        }

        impl ::std::fmt::Display for $name {
            fn fmt(&self, f: &mut ::std::fmt::Formatter<'_>) -> ::std::fmt::Result {
                f.write_str(self.as_str())
            }
        }

        impl $crate::code::__serde::Serialize for $name {
            fn serialize<S: $crate::code::__serde::Serializer>(
                &self,
                s: S,
            ) -> ::std::result::Result<S::Ok, S::Error> {
                s.serialize_str(self.as_str())
            }
        }

        impl<'de> $crate::code::__serde::Deserialize<'de> for $name {
            fn deserialize<D: $crate::code::__serde::Deserializer<'de>>(
                d: D,
            ) -> ::std::result::Result<Self, D::Error> {
                let name = <::std::string::String as $crate::code::__serde::Deserialize>::deserialize(d)?;
                $name::from_name(&name).ok_or_else(|| {
                    <D::Error as $crate::code::__serde::de::Error>::custom(format!(
                        "unknown code `{name}`"
                    ))
                })
            }
        }
    };
}

define_codes! {
    /// A stable admission diagnostic code.
    pub enum Code: fn default_hint -> &'static str {
        /// The file is not valid UTF-8.
        NotUtf8 => "test.spec.not_utf8", "save the file as UTF-8";
        /// The file exceeds the 1 MiB limit.
        FileTooLarge => "test.spec.file_too_large", "split the suite into several files of at most 1 MiB each";
        /// The file is empty or holds only comments and whitespace.
        EmptyFile => "test.spec.empty_file", "add a `suite \"name\" { … }` block or delete the file";
        /// The path could not be read.
        Unreadable => "test.spec.unreadable", "check that the path exists, is a regular file and is readable";
        /// `fmt` could not replace a file: it is read-only, or its directory refused the new copy.
        Unwritable => "test.spec.unwritable", "make the file and its directory writable, or format a copy";
        /// A directory given on the command line holds no `.acl` file.
        NoSuiteFiles => "test.spec.no_suite_files", "point at a directory that contains `*.acl` files, or at a file";
        /// A character that starts no ACL token.
        InvalidToken => "test.spec.invalid_token", "remove the character, or quote it inside a string";
        /// A string literal runs to the end of its line or file without a closing quote.
        UnterminatedString => "test.spec.unterminated_string", "close the string with the same quote it opened with";
        /// A regular expression literal runs to the end of its line without a closing `/`.
        UnterminatedRegex => "test.spec.unterminated_regex", "close it with `/`, and write a slash inside it as `\\/`";
        /// A regular expression that cannot be used: empty, or with a flag other than `i`, `m`, `s`, `u` (or one twice).
        InvalidRegex => "test.spec.invalid_regex", "write `/pattern/` with at most the flags `i`, `m`, `s` and `u`, each once";
        /// An unknown escape sequence inside a string.
        InvalidEscape => "test.spec.invalid_escape", "use one of \\\" \\\\ \\n \\r \\t \\u{XXXX}";
        /// An integer literal that does not fit in 64 bits.
        NumberTooLarge => "test.spec.number_too_large", "use a smaller number";
        /// The token stream does not match the grammar.
        Syntax => "test.spec.syntax", "blocks are `kind \"label\" { … }` and attributes are `name = value`";
        /// Blocks nested deeper than 64 levels.
        NestingTooDeep => "test.spec.nesting_too_deep", "flatten the nesting to at most 64 levels";
        /// A list with more than 10,000 items.
        ListTooLong => "test.spec.list_too_long", "keep lists to at most 10,000 items";
        /// More than one root block in one file.
        MultipleRoots => "test.spec.multiple_roots", "put each suite in its own file";
        /// A root block other than `suite` or `project`.
        UnknownRoot => "test.spec.unknown_root", "a file's root block is `suite`, `project`, `library` or `contract`";
        /// A nested block kind that is not allowed where it stands.
        UnknownBlock => "test.spec.unknown_block", "use one of the blocks listed for this parent in docs/acl.md";
        /// An attribute the block does not define.
        UnknownAttribute => "test.spec.unknown_attribute", "remove the attribute or correct its name";
        /// A required attribute is missing.
        MissingAttribute => "test.spec.missing_attribute", "add the required attribute";
        /// The same attribute is given twice in one block.
        DuplicateAttribute => "test.spec.duplicate_attribute", "keep a single assignment of the attribute";
        /// A block that needs a label has none.
        MissingLabel => "test.spec.missing_label", "give the block a label: `kind \"label\" { … }`";
        /// A block that takes no label has one.
        UnexpectedLabel => "test.spec.unexpected_label", "remove the label from this block";
        /// A value of the wrong type (string for integer, fraction for integer, …).
        Type => "test.spec.type", "give the attribute a value of the documented type";
        /// A value of the right type outside its allowed set or range.
        InvalidValue => "test.spec.invalid_value", "use one of the documented values";
        /// A scenario id or step label that is empty, too long, or uses other characters.
        InvalidId => "test.spec.invalid_id", "ids and labels are 1–64 characters of A-Z a-z 0-9 _ -";
        /// Two scenarios, steps or checks with the same id under one parent.
        DuplicateId => "test.spec.duplicate_id", "rename one of them; ids are unique within their parent";
        /// A suite with no scenario.
        EmptySuite => "test.spec.empty_suite", "add at least one `scenario \"id\" { … }` block";
        /// A scenario with no step.
        EmptyScenario => "test.spec.empty_scenario", "add at least one step such as `navigate \"open\" { url = \"/\" }`";
        /// A `steps` group or a suite hook holds no step.
        EmptyGroup => "test.spec.empty_group", "add at least one step to the group, or delete it";
        /// A `contract` holds no expectation (no `element`, `text` or `layout` in any route).
        EmptyContract => "test.spec.empty_contract", "add `route \"/path\" { element \"id\" { role = \"button\" name = \"Pay\" } }`";
        /// A `check_contract` whose file cannot be read, is not an admitted `contract`, or names a route the contract does not hold.
        ContractFile => "test.spec.contract_file", "point `path` at a reviewed contract (`a3s-test contract review … --out contract.acl`), relative to the suite's folder, and `route` at one of its routes";
        /// `use` names a group neither the suite nor an included library defines.
        UnknownGroup => "test.spec.unknown_group", "define `steps \"name\" { … }` in the suite, or include the library that holds it in the project file";
        /// A group uses itself, directly or through other groups.
        GroupCycle => "test.spec.group_cycle", "break the cycle: a group cannot use itself, directly or through another group";
        /// Groups nest deeper than 8 `use` levels.
        GroupDepth => "test.spec.group_depth", "flatten the groups: `use` nests at most 8 levels";
        /// `${name}` names no key of the scenario's `each` rows.
        UnknownParam => "test.spec.unknown_param", "use a key of the scenario's `each` rows, or write `$${` for a literal `${`";
        /// The `each` rows of a scenario are not a non-empty list of objects with the same keys.
        ParamRows => "test.spec.param_rows", "give every row of `each` the same keys: `each = [{ user = \"alice\" }, { user = \"bob\" }]`";
        /// A call to a function that is not a target form.
        UnknownTarget => "test.spec.unknown_target", "targets are role(), label(), placeholder(), text(), testid(), css() or ref()";
        /// A target function called with the wrong number or kind of arguments.
        TargetArguments => "test.spec.target_arguments", "check the target's arguments in docs/acl.md";
        /// A ref that is not `@eN`, `@cN` or `@uN`.
        InvalidRef => "test.spec.invalid_ref", "refs look like @e4 (accessibility) or @c2 (Test Kit node)";
        /// An `@uN` ref used as a target: such refs are read-only evidence.
        TargetObservationOnly => "test.spec.target_observation_only", "act on an @eN or @cN ref, or a semantic target such as role()";
        /// `visual_point(…)` in a suite file: it names one session's screenshot.
        VisualPointInSuite => "test.spec.visual_point_in_suite", "promote the session: the click is written as the element at that point";
        /// `main()` anywhere but a `frame` step.
        MainOutsideFrame => "test.spec.main_outside_frame", "use main() only as the target of a `frame` step";
        /// A `frame` target that is not `main()`, `css()` or `ref()`.
        FrameTarget => "test.spec.frame_target", "a frame target is main(), css(\"iframe…\") or ref(\"@eN\")";
        /// A `wait` or `expect` with no condition.
        MissingCondition => "test.spec.missing_condition", "give the step exactly one condition";
        /// A `wait` or `expect` with more than one condition.
        ConflictingConditions => "test.spec.conflicting_conditions", "split the conditions into separate steps";
        /// An attribute that belongs to a different `expect` form.
        ConditionAttribute => "test.spec.condition_attribute", "remove the attribute; this expect form does not use it";
        /// A `hidden` condition on a `ref` target.
        HiddenTargetUnstable => "test.spec.hidden_target_unstable", "use a stable target (role, label, text, testid, css): a stale ref would look like disappearance";
        /// `in_viewport` on a `ref` target.
        InViewportTargetUnstable => "test.spec.in_viewport_target_unstable", "use a stable target (role, label, text, testid, css)";
        /// `pointer_reachable` on a `ref` target.
        PointerReachableTargetUnstable => "test.spec.pointer_reachable_target_unstable", "use a stable target (role, label, text, testid, css)";
        /// `rendered_texts` on a `ref` target.
        RenderedTextsTargetUnstable => "test.spec.rendered_texts_target_unstable", "use a stable target (role, label, text, testid, css)";
        /// `visible_count` on a `ref` target.
        VisibleCountTargetUnstable => "test.spec.visible_count_target_unstable", "use a stable target (role, label, text, testid, css)";
        /// `layout` with a `ref` as `target` or `relative_to`.
        LayoutTargetUnstable => "test.spec.layout_target_unstable", "use stable targets (role, label, text, testid, css) on both sides";
        /// `stable_for_ms` or `sample_interval_ms` out of range, or too many planned samples.
        StabilityLimit => "test.spec.stability_limit", "stable_for_ms is 10–60000 and sample_interval_ms ≤ stable_for_ms, at most 1,001 samples";
        /// An evidence path that is empty, absolute, escapes with `..`, or has the wrong extension.
        EvidencePath => "test.spec.evidence_path", "use a relative path inside the scenario's artifact folder, without `..`";
        /// An evidence path longer than 1,024 bytes, deeper than 32 names, or with a name over 255 bytes.
        EvidencePathLimit => "test.spec.evidence_path_limit", "keep evidence paths within 1,024 bytes, 32 names deep and 255 bytes per name";
        /// `env("NAME")` whose name is not an environment variable name: ASCII letters, digits and `_`, not starting with a digit, at most 128 characters.
        InvalidEnvName => "test.spec.invalid_env_name", "name the variable with letters, digits and `_`, not starting with a digit, at most 128 characters: env(\"API_TOKEN\")";
        /// A key chord `press` cannot send.
        InvalidKey => "test.spec.invalid_key", "use a key name such as Enter, Tab, a, or a chord such as Control+a";
        /// A `network_route` with none or more than one of `body`, `abort` and `continue`, or an attribute of another way of answering.
        RouteResponse => "test.spec.route_response", "give exactly one of `body = \"…\"`, `abort = true` or `continue = true`, with only its own attributes";
        /// A `wheel` step whose deltas are both zero.
        WheelDelta => "test.spec.wheel_delta", "set delta_y or delta_x to a non-zero number of pixels";
        /// A step or condition of another surface: a browser step or page condition in a
        /// `surface = "tui"` scenario, or a terminal step or screen condition in a web one.
        SurfaceStep => "test.spec.surface_step", "use the steps of the scenario's surface (docs/acl.md §5 for web, §5.1 for tui)";
        /// A `tab` or `dialog` attribute that its `operation` does not take.
        OperationAttribute => "test.spec.operation_attribute", "remove the attribute or change the operation";
        /// A `storage_state` or `save_storage_state` path that could leave the project or is not a file path.
        StatePath => "test.spec.state_path", "use a relative path inside the project, without `..`, e.g. \".a3s-test/auth.json\"";
        /// A `depends_on` entry naming no scenario of the suite.
        UnknownDependency => "test.spec.unknown_dependency", "name a scenario of the same suite by its id";
        /// `depends_on` entries that form a cycle (a scenario needing itself, directly or not).
        DependencyCycle => "test.spec.dependency_cycle", "remove one `depends_on` entry of the cycle";
        /// Both `skip` and `fixme` on one scenario.
        ConflictingAnnotations => "test.spec.conflicting_annotations", "keep one of `skip` and `fixme`";
        /// `device = "…"` naming no row of the built-in device table.
        UnknownDevice => "test.spec.unknown_device", "name a device of the built-in table (docs/acl.md §2.4), e.g. \"Pixel 7\" or \"iPhone 13\"";
        /// `timezone_id` that is no IANA time zone name.
        InvalidTimezone => "test.spec.invalid_timezone", "use an IANA time zone name such as \"Europe/Berlin\", \"Asia/Tokyo\" or \"UTC\"";
        /// A clock instant that is not an RFC 3339 date and time.
        InvalidTime => "test.spec.invalid_time", "write an RFC 3339 instant with its offset, e.g. \"2020-01-01T00:00:00Z\"";
        /// More than 100 diagnostics in one file: the rest are counted, not listed.
        TooManyDiagnostics => "test.spec.too_many_diagnostics", "fix the problems listed above and run `a3s-test check` again to see the rest";
        /// Statement mode received zero or several step blocks.
        StatementCount => "test.spec.statement_count", "send exactly one step block, e.g. `click { target = ref(\"@e3\") }`";
    }
}

impl Code {
    /// True for codes raised while reading bytes or paths, before any parsing.
    pub fn is_input(self) -> bool {
        matches!(
            self,
            Code::NotUtf8
                | Code::FileTooLarge
                | Code::Unreadable
                | Code::Unwritable
                | Code::NoSuiteFiles
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_are_unique_and_round_trip() {
        let mut seen = std::collections::HashSet::new();
        for code in Code::ALL {
            assert!(code.as_str().starts_with("test.spec."), "{code}");
            assert!(seen.insert(code.as_str()), "duplicate {code}");
            assert_eq!(Code::from_name(code.as_str()), Some(*code));
            assert!(!code.default_hint().is_empty());
        }
    }
}
