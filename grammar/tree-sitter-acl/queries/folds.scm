; Blocks, lists and objects fold.
(body) @fold
(list) @fold
(object) @fold
