%% Checks: erlang:md5/1 and the md5_init/update/final stream, on binaries and iolists, the stream agreeing with the one-shot digest, and badarg cases.
-module(bif_md5).
-export([main/0]).

c(F) -> try F() catch C:R -> {C, R} end.

hex(B) -> lists:flatten([io_lib:format("~2.16.0b", [X]) || <<X>> <= B]).

main() ->
    Data = [<<>>, <<"a">>, <<"abc">>, "message digest", [<<"abcdefghijklm">>, "nopqrstuvwxyz"],
            binary:copy(<<"1234567890">>, 8), list_to_binary(lists:seq(0, 255)),
            binary:copy(<<"x">>, 55), binary:copy(<<"x">>, 56), binary:copy(<<"x">>, 64)],
    io:format("~s~n", [[[hex(erlang:md5(D)), $\n] || D <- Data]]),
    %% The stream over pieces of every size gives the one-shot digest.
    Long = list_to_binary([lists:seq(1, 200) || _ <- lists:seq(1, 5)]),
    Stream = [begin
                  Pieces = split(Long, N),
                  Ctx = lists:foldl(fun(P, C) -> erlang:md5_update(C, P) end, erlang:md5_init(), Pieces),
                  erlang:md5_final(Ctx) =:= erlang:md5(Long)
              end || N <- [1, 3, 63, 64, 65, 128, 1000]],
    io:format("stream ~p~n", [Stream]),
    Ctx0 = erlang:md5_init(),
    io:format("ctx ~p~n", [{is_binary(Ctx0), hex(erlang:md5_final(Ctx0)),
                            hex(erlang:md5_final(erlang:md5_update(Ctx0, ["a", <<"bc">>])))}]),
    %% A context can be continued twice: each branch is its own.
    Half = erlang:md5_update(Ctx0, <<"same start ">>),
    io:format("branches ~p~n", [{erlang:md5_final(erlang:md5_update(Half, <<"one">>)) =:= erlang:md5(<<"same start one">>),
                                 erlang:md5_final(erlang:md5_update(Half, <<"two">>)) =:= erlang:md5(<<"same start two">>)}]),
    Bad = [fun() -> erlang:md5(foo) end, fun() -> erlang:md5([300]) end, fun() -> erlang:md5(<<1:7>>) end,
           fun() -> erlang:md5_update(<<"short">>, <<"a">>) end, fun() -> erlang:md5_final(<<"short">>) end,
           fun() -> erlang:md5_update(Ctx0, foo) end, fun() -> erlang:md5_final(foo) end],
    io:format("errors ~p~n", [[c(F) || F <- Bad]]),
    ok.

split(Bin, N) when byte_size(Bin) =< N -> [Bin];
split(Bin, N) -> <<P:N/binary, Rest/binary>> = Bin, [P | split(Rest, N)].
