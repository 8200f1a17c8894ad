%% Checks: dict and orddict agree on the same operations (store, append, update, erase, fold) over a list of words.
-module(std_dict_orddict2).
-export([main/0]).
main() ->
    Words = string:lexemes("the cat and the dog and the bird", " "),
    D = lists:foldl(fun(W, Acc) -> dict:update_counter(W, 1, Acc) end, dict:new(), Words),
    O = lists:foldl(fun(W, Acc) -> orddict:update_counter(W, 1, Acc) end, orddict:new(), Words),
    io:format("~p~n", [lists:sort(dict:to_list(D)) =:= O]),
    io:format("~p~n", [O]),
    io:format("~p~n", [orddict:erase("the", O)]),
    io:format("~p~n", [dict:fetch("and", dict:erase("the", D))]),
    io:format("~p~n", [orddict:fetch_keys(O)]),
    io:format("~p~n", [orddict:size(O)]),
    ok.
