%% Checks: gen_statem with state_functions: states, events via call and cast, state data, postponed events not used, stop.
-module(gs_statem_door).
-behaviour(gen_statem).
-export([main/0, init/1, callback_mode/0, locked/3, open/3]).

callback_mode() -> state_functions.

init(Code) -> {ok, locked, #{code => Code, tries => 0}}.

locked({call, From}, {enter, Code}, #{code := Code} = D) ->
    {next_state, open, D#{tries := 0}, [{reply, From, unlocked}]};
locked({call, From}, {enter, _Wrong}, #{tries := T} = D) ->
    {keep_state, D#{tries := T + 1}, [{reply, From, {wrong, T + 1}}]};
locked({call, From}, state, _D) ->
    {keep_state_and_data, [{reply, From, locked}]};
locked(cast, _, _D) ->
    keep_state_and_data.

open({call, From}, state, _D) ->
    {keep_state_and_data, [{reply, From, open}]};
open(cast, lock, D) ->
    {next_state, locked, D};
open({call, From}, {enter, _}, _D) ->
    {keep_state_and_data, [{reply, From, already_open}]}.

main() ->
    {ok, P} = gen_statem:start(?MODULE, [1, 2, 3], []),
    io:format("~p~n", [gen_statem:call(P, state)]),
    io:format("~p~n", [gen_statem:call(P, {enter, [0, 0, 0]})]),
    io:format("~p~n", [gen_statem:call(P, {enter, [9, 9, 9]})]),
    io:format("~p~n", [gen_statem:call(P, {enter, [1, 2, 3]})]),
    io:format("~p~n", [gen_statem:call(P, state)]),
    io:format("~p~n", [gen_statem:call(P, {enter, [1, 2, 3]})]),
    gen_statem:cast(P, lock),
    io:format("~p~n", [gen_statem:call(P, state)]),
    gen_statem:stop(P).
