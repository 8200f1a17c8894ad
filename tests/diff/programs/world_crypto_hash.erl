%% Checks: crypto:hash for md5, sha, sha224, sha256, sha384, sha512 (as hex), the hash_init/update/final stream, iodata input.
-module(world_crypto_hash).
-export([main/0]).
hex(B) -> binary:encode_hex(B).
main() ->
    [io:format("~p ~s~n", [A, hex(crypto:hash(A, <<"abc">>))]) || A <- [md5, sha, sha224, sha256, sha384, sha512]],
    S = crypto:hash_update(crypto:hash_update(crypto:hash_init(sha256), "ab"), [<<"c">>]),
    io:format("~s~n", [hex(crypto:hash_final(S))]),
    io:format("~s~n", [hex(crypto:hash(md5, ""))]),
    io:format("~s~n", [hex(crypto:hash(sha, lists:duplicate(1000, $a)))]),
    io:format("~p~n", [byte_size(crypto:strong_rand_bytes(24))]),
    R = try crypto:hash(nope, <<>>) catch error:E -> element(1, E) end,
    io:format("~p~n", [R]),
    ok.
