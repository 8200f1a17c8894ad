%% The entry racewit run/check/explore use on the fixture, and a race of
%% its own (a lazily started cache: whereis, then register).
-module(world_main).
-export([main/0, test/0, cache/0]).

main() ->
    {ok, Started} = application:ensure_all_started(world_app),
    Replies = [world_server:add_peer(A) || A <- ["10.0.0.1", "::1", "nope", "10.0.0.2", "10.0.0.3"]],
    {Started, Replies, world_server:peers(), world_server:hits(),
     application:get_application(whereis(world_server)),
     lists:keymember(world_app, 1, application:which_applications())}.

test() ->
    {ok, _} = application:ensure_all_started(world_app),
    Self = self(),
    [spawn(fun() -> Self ! {done, cache()} end) || _ <- [1, 2]],
    Pids = [receive {done, R} -> R end || _ <- [1, 2]],
    [P ! stop || P <- lists:usort(Pids)],
    ok = application:stop(world_app),
    length(lists:usort(Pids)).

cache() ->
    {ok, Addr} = inet:parse_address("127.0.0.1"),
    Seen = sets:add_element(Addr, sets:new()),
    Hits = counters:new(1, []),
    counters:add(Hits, 1, sets:size(Seen)),
    logger:notice("cache lookup from ~p", [sets:to_list(Seen)]),
    case whereis(world_cache) of
        undefined ->
            Pid = spawn(fun() -> receive stop -> ok end end),
            register(world_cache, Pid),
            Pid;
        Pid ->
            Pid
    end.
