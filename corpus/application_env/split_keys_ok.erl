%% Each worker records its own start in the application environment under a
%% key of its own ({started, Id}) after checking that key: two workers never
%% touch the same key, so there is nothing to race on.
%% Expected: R007 filtered (the keys can never be equal).
-module(split_keys_ok).
-export([mark/1, test/0]).

mark(Id) when Id =:= alpha; Id =:= beta ->
    case application:get_env(split_keys_ok, {started, Id}) of
%%       ^^^^^^^^^^^^^^^^^^^^ R007 #1 read: application split_keys_ok, key {started, Id} (filtered)
        undefined ->
            application:set_env(split_keys_ok, {seen, Id}, true);
%%          ^^^^^^^^^^^^^^^^^^^^ R007 #1 write: a different key, {seen, Id}
        {ok, _} ->
            ok
    end.

test() ->
    Self = self(),
    Pids = [spawn(fun() -> mark(Id), Self ! {done, self()} end) || Id <- [alpha, beta]],
    [receive {done, P} -> ok end || P <- Pids],
    Seen = [application:get_env(split_keys_ok, {seen, Id}) || Id <- [alpha, beta]],
    [application:unset_env(split_keys_ok, {seen, Id}) || Id <- [alpha, beta]],
    Seen.
