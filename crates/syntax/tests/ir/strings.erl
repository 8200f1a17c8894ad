-module(strings).
-export([s/0, pat/1, chars/0, empty/0]).

s() -> {"hello", "adjacent" " strings" " joined", ~"sigil binary", ~s"sigil string", ~b[brackets], "tab\there"}.
pat("GET " ++ Rest) -> {get, Rest};
pat([$P, $O | Rest]) -> {post, Rest};
pat("") -> empty.
chars() -> [$a, $\n, $\s, $\x{263a}].
empty() -> {"", <<>>, []}.
