; A regular expression value is written in Rust `regex` syntax (docs/acl.md §3, §9).
((regex) @injection.content
  (#set! injection.language "regex"))

; A `css(...)` target's selector is CSS.
((call
  function: (identifier) @_function
  (string) @injection.content)
  (#eq? @_function "css")
  (#set! injection.language "css"))
