-module(emk_cache_tests).
-include_lib("eunit/include/eunit.hrl").

hit_test() ->
    emk_cache:init(),
    emk_cache:hit(k),
    ?assertEqual(ok, ok).
