-module(a_server_tests).
-include_lib("eunit/include/eunit.hrl").

-ifdef(TEST_ONLY).
started_test() ->
    {ok, Pid} = a_server:ensure_started(),
    ?assert(is_pid(Pid)).
-endif.
