%% Checks: OTP's erl_scan from source: string/1 tokens with locations, reserved words, errors, and tokens/3 continuation.
-module(fmt_erl_scan_tokens).
-export([main/0]).
main() ->
    {ok, Ts, End} = erl_scan:string("foo(X) -> X + 1."),
    io:format("~p ~p~n", [[erl_scan:category(T) || T <- Ts], End]),
    io:format("~p~n", [erl_scan:string("\"unterminated")]),
    io:format("~p~n", [[erl_scan:reserved_word(W) || W <- ['case', foo, 'receive', 'maybe']]]),
    {ok, [T1 | _], _} = erl_scan:string("atom", {3, 5}),
    io:format("~p ~p~n", [erl_scan:location(T1), erl_scan:text(T1)]),
    {done, {ok, Toks, _}, Rest} = erl_scan:tokens([], "a. b.", 1),
    io:format("~p ~p~n", [length(Toks), Rest]),
    io:format("~p~n", [erl_scan:string("1.5e3 $a 16#ff")]),
    ok.
