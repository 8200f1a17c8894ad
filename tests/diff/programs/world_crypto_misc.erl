%% Checks: crypto:hash over nested iodata and large inputs (several blocks), hash_final of an empty stream, supports(hashs) containing sha256.
-module(world_crypto_misc).
-export([main/0]).
main() ->
    Big = binary:copy(<<"0123456789">>, 1000),
    io:format("~s~n", [binary:encode_hex(crypto:hash(sha256, Big))]),
    io:format("~s~n", [binary:encode_hex(crypto:hash(md5, [<<"a">>, [$b, [<<"c">>]]]))]),
    io:format("~s~n", [binary:encode_hex(crypto:hash(sha512, ""))]),
    io:format("~s~n", [binary:encode_hex(crypto:hash_final(crypto:hash_init(sha)))]),
    St = lists:foldl(fun(C, S) -> crypto:hash_update(S, [C]) end, crypto:hash_init(sha384), "stream"),
    io:format("~p~n", [crypto:hash_final(St) =:= crypto:hash(sha384, "stream")]),
    io:format("~p~n", [lists:member(sha256, crypto:supports(hashs))]),
    ok.
