%% Checks: persistent_term put/get/get with default/erase, a value seen
%% from another process, get/1 of a missing key (badarg), and get/0
%% holding what was put.
-module(pterm_basic).
-export([main/0]).

main() ->
    Key = {pterm_basic, config},
    ok = persistent_term:put(Key, #{mode => fast}),
    A = persistent_term:get(Key),
    B = persistent_term:get({pterm_basic, missing}, none),
    Self = self(),
    spawn(fun() -> Self ! {seen, persistent_term:get(Key)} end),
    C = receive {seen, V} -> V end,
    D = lists:member({Key, #{mode => fast}}, persistent_term:get()),
    E = persistent_term:erase(Key),
    F = persistent_term:erase(Key),
    G = try persistent_term:get(Key) catch error:R -> R end,
    {A, B, C, D, E, F, G}.
