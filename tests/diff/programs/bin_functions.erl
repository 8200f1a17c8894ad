%% Checks: binary module: split, replace, match, matches, part, at, copy, first/last, list_to_bin, longest_common_prefix, decode_unsigned, encode_unsigned.
-module(bin_functions).
-export([main/0]).

main() ->
    B = <<"a,b,,c">>,
    io:format("~p~n", [binary:split(B, <<",">>)]),
    io:format("~p~n", [binary:split(B, <<",">>, [global])]),
    io:format("~p~n", [binary:split(B, <<",">>, [global, trim_all])]),
    io:format("~p~n", [binary:replace(B, <<",">>, <<";">>, [global])]),
    io:format("~p~n", [binary:replace(B, <<",">>, <<"-">>)]),
    io:format("~p~n", [binary:match(<<"hello world">>, <<"o">>)]),
    io:format("~p~n", [binary:matches(<<"hello world">>, <<"o">>)]),
    io:format("~p~n", [binary:match(<<"abc">>, <<"z">>)]),
    io:format("~p~n", [binary:part(<<"abcdef">>, 1, 3)]),
    io:format("~p ~p ~p~n", [binary:at(<<"xyz">>, 1), binary:first(<<"xyz">>), binary:last(<<"xyz">>)]),
    io:format("~p~n", [binary:copy(<<"ab">>, 3)]),
    io:format("~p~n", [binary:bin_to_list(<<"abc">>)]),
    io:format("~p~n", [binary:list_to_bin([<<"x">>, "y"])]),
    io:format("~p~n", [binary:longest_common_prefix([<<"racewit">>, <<"race">>, <<"racer">>])]),
    io:format("~p~n", [binary:decode_unsigned(<<1, 0>>)]),
    io:format("~p~n", [binary:encode_unsigned(65536)]),
    io:format("~p~n", [binary:decode_unsigned(<<1, 0>>, little)]),
    io:format("~p~n", [binary_to_list(<<>>)]),
    binary:split(<<"k=v=w">>, <<"=">>).
