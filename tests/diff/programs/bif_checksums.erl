%% Checks: erlang:crc32/1,2, crc32_combine/3, adler32/1,2, adler32_combine/3 on binaries and iolists, chaining and combining, and their badarg cases.
-module(bif_checksums).
-export([main/0]).

c(F) -> try F() catch C:R -> {C, R} end.

main() ->
    Data = [<<>>, <<"a">>, <<"abc">>, "hello world", [<<"he">>, "ll", [$o | <<" wo">>], "rld"],
            list_to_binary(lists:seq(0, 255)), binary:copy(<<"racewit">>, 1000)],
    io:format("crc32 ~p~n", [[erlang:crc32(D) || D <- Data]]),
    io:format("adler32 ~p~n", [[erlang:adler32(D) || D <- Data]]),
    %% Chaining: the checksum of A then B equals that of A ++ B.
    A = <<"The quick brown fox ">>, B = "jumps over the lazy dog",
    Whole = iolist_to_binary([A, B]),
    io:format("chain ~p~n", [{erlang:crc32(erlang:crc32(A), B) =:= erlang:crc32(Whole),
                              erlang:adler32(erlang:adler32(A), B) =:= erlang:adler32(Whole),
                              erlang:crc32(Whole), erlang:adler32(Whole)}]),
    %% Combining: the checksum of A ++ B from the two parts' checksums and B's size.
    Sizes = [0, 1, 2, 3, 7, 64, 1000, 70000],
    Comb = [begin
                P = binary:copy(<<"x">>, N div 2 + 1), Q = binary:copy(<<"yz">>, N div 2),
                {erlang:crc32_combine(erlang:crc32(P), erlang:crc32(Q), byte_size(Q))
                     =:= erlang:crc32(<<P/binary, Q/binary>>),
                 erlang:adler32_combine(erlang:adler32(P), erlang:adler32(Q), byte_size(Q))
                     =:= erlang:adler32(<<P/binary, Q/binary>>)}
            end || N <- Sizes],
    io:format("combine ~p~n", [Comb]),
    io:format("combine values ~p~n", [[erlang:crc32_combine(16#12345678, 16#9abcdef0, 5),
                                       erlang:adler32_combine(16#12345678, 16#9abcdef0, 5),
                                       erlang:crc32_combine(1, 2, 0), erlang:adler32_combine(1, 2, 0),
                                       erlang:crc32(16#ffffffff, <<"z">>), erlang:adler32(16#ffffffff, <<"z">>),
                                       erlang:adler32(0, <<"z">>)]]),
    Bad = [fun() -> erlang:crc32(foo) end, fun() -> erlang:crc32([256]) end,
           fun() -> erlang:crc32(-1, <<"a">>) end, fun() -> erlang:crc32(1 bsl 32, <<"a">>) end,
           fun() -> erlang:crc32(1.0, <<"a">>) end, fun() -> erlang:adler32(<<1:3>>) end,
           fun() -> erlang:adler32(-1, <<>>) end, fun() -> erlang:adler32(1 bsl 32, <<>>) end,
           fun() -> erlang:crc32_combine(1, 2, -1) end, fun() -> erlang:crc32_combine(-1, 2, 1) end,
           fun() -> erlang:crc32_combine(1, 1 bsl 32, 1) end, fun() -> erlang:crc32_combine(1, 2, a) end,
           fun() -> erlang:adler32_combine(1, 2, -1) end, fun() -> erlang:adler32_combine(1 bsl 32, 2, 1) end],
    io:format("errors ~p~n", [[c(F) || F <- Bad]]),
    ok.
