; Block kinds: suite, scenario, click, dev_server, …
(block kind: (identifier) @keyword)

; A block's label declares a name (a scenario id, a step label).
(block label: (string) @label)

(attribute name: (identifier) @property)
(entry name: (identifier) @property)
(named_argument name: (identifier) @variable.parameter)

; Target functions (role, text, within, …) and env().
(call function: (identifier) @function.call)

(string) @string
(regex) @string.regexp
(integer) @number
(decimal) @number.float
(boolean) @boolean
(null) @constant.builtin
(comment) @comment @spell

["=" ","] @punctuation.delimiter
["{" "}" "[" "]" "(" ")"] @punctuation.bracket
