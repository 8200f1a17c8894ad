-module(gen_names).
-export([names/0]).

names() -> [?SERVER].
