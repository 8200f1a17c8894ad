%% `register/2` fails when the process holds a name already, so it reads
%% that name: an `unregister` of it by another process decides whether the
%% second register succeeds.
-module(register_held).
-export([main/0]).

main() ->
    Self = self(),
    spawn(fun() ->
              register(n1, self()),
              Self ! named,
              R = try register(n2, self()) catch error:badarg -> badarg end,
              Self ! {second, R}
          end),
    receive named -> ok end,
    U = try unregister(n1) catch error:badarg -> none end,
    receive {second, R} -> {U, R} end.
