-module(umbrella_tests).
-include_lib("eunit/include/eunit.hrl").

-ifdef(TEST).
both_apps_test() ->
    ?assertEqual(hello, hello).
-endif.
