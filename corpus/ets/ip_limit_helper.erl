%% A per-IP connection limit, MongooseIM style: the table is made by a
%% helper (create_table/2, as ejabberd_sup:create_ets_table/2) that returns
%% its name; register/1 checks membership, then inserts.
%% Expected: R002 confirmed, non_serializable (both connections registered
%% as the first, the second's count lost).
-module(ip_limit_helper).
-export([setup/0, register/1, connections/1, test/0]).

create_table(Name, Opts) ->
    ets:new(Name, [named_table | Opts]).

setup() ->
    create_table(ip_conns, [public, set]),
    ok.

register(IP) ->
    case ets:member(ip_conns, IP) of
%%            ^^^^^^ R002 #1 #2 read: ets ip_conns/<IP>, made by a helper (confirmed)
        false ->
            ets:insert(ip_conns, {IP, 1});
%%          ^^^^^^^^^^ R002 #1 write: a second first connection resets the count
        true ->
            [{IP, N}] = ets:lookup(ip_conns, IP),
%%                      ^^^^^^^^^^ R002 #3 read: ets ip_conns/<IP> (confirmed)
            ets:insert(ip_conns, {IP, N + 1})
%%          ^^^^^^^^^^ R002 #2 #3 write: a count from before the other connection
    end.

connections(IP) ->
    ets:lookup_element(ip_conns, IP, 2).

test() ->
    setup(),
    Self = self(),
    Pids = [spawn(fun() -> register({10, 0, 0, 1}), Self ! {done, self()} end) || _ <- [1, 2]],
    [receive {done, P} -> ok end || P <- Pids],
    N = connections({10, 0, 0, 1}),
    ets:delete(ip_conns),
    N.
