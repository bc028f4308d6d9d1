/**
 * Tree-sitter grammar for ACL, the A3S Test suite language. It follows grammar/acl.ebnf (the
 * grammar lang/src/lexer.rs and lang/src/parser.rs implement): one generic block shape
 * `kind "label"? { attribute = value | block }`, newline-insensitive, comments as extras.
 * tests/agree.rs checks that this grammar and `lang` accept the same files.
 */

const commaSep1 = (rule) => seq(rule, repeat(seq(',', rule)), optional(','));

module.exports = grammar({
  name: 'acl',

  extras: ($) => [/[ \t\r\n\f]/, '\uFEFF', $.comment],

  word: ($) => $.identifier,

  rules: {
    document: ($) => repeat($.block),

    block: ($) =>
      seq(
        field('kind', $.identifier),
        optional(field('label', $.string)),
        field('body', $.body),
      ),

    body: ($) => seq('{', repeat(choice($.attribute, $.block)), '}'),

    attribute: ($) => seq(field('name', $.identifier), '=', field('value', $._value)),

    _value: ($) =>
      choice(
        $.string,
        $.integer,
        $.decimal,
        $.boolean,
        $.null,
        $.regex,
        $.list,
        $.object,
        $.call,
      ),

    list: ($) => seq('[', optional(commaSep1($._value)), ']'),

    object: ($) => seq('{', optional(commaSep1($.entry)), '}'),

    // A key is a name or, for names that are not identifiers (HTTP header names), a string.
    entry: ($) =>
      seq(field('name', choice($.identifier, $.string)), '=', field('value', $._value)),

    call: ($) =>
      seq(
        field('function', $.identifier),
        '(',
        optional(commaSep1(choice($.named_argument, $._value))),
        ')',
      ),

    named_argument: ($) => seq(field('name', $.identifier), '=', field('value', $._value)),

    boolean: (_) => choice('true', 'false'),

    null: (_) => 'null',

    identifier: (_) => /[A-Za-z_][A-Za-z0-9_]*/,

    integer: (_) => /-?[0-9]+/,

    decimal: (_) => /-?[0-9]+\.[0-9]+/,

    string: (_) =>
      token(
        choice(
          // A block string: up to the next `"""`, newlines included, no escapes.
          /"""([^"]|"[^"]|""[^"])*"""/,
          seq(
            '"',
            repeat(choice(/[^"\\\r\n]/, /\\["'\\nrt]/, /\\u\{[0-9A-Fa-f]{1,6}\}/)),
            '"',
          ),
          seq(
            "'",
            repeat(choice(/[^'\\\r\n]/, /\\["'\\nrt]/, /\\u\{[0-9A-Fa-f]{1,6}\}/)),
            "'",
          ),
        ),
      ),

    regex: (_) =>
      token(
        seq(
          '/',
          choice(/[^/\\\r\n]/, /\\[^\r\n]/),
          repeat(choice(/[^/\\\r\n]/, /\\[^\r\n]/)),
          '/',
          /[A-Za-z]*/,
        ),
      ),

    comment: (_) => token(choice(seq('#', /[^\r\n]*/), seq('//', /[^\r\n]*/))),
  },
});
