%% Multi-device sessions: login/2 appends a device to the user's device list.
%% It checks membership, reads the list if present and writes the extended
%% list; a phone and a laptop logging in together can lose one device.
%% Expected: two R002 suspects (member and lookup_element reads), both
%% confirmed, non_serializable, bound 1.
-module(session_table).
-export([setup/0, login/2, devices/1, logout/1, teardown/0, test/0]).

-define(TAB, sessions).

setup() ->
    ets:new(?TAB, [named_table, public, set]),
    ok.

teardown() ->
    ets:delete(?TAB),
    ok.

login(User, Device) ->
    Devices = case ets:member(?TAB, User) of
%%                 ^^^^^^^^^^ R002 #1 read: ets sessions/<User> (confirmed, non_serializable)
                  false -> [];
                  true -> ets:lookup_element(?TAB, User, 2)
%%                        ^^^^^^^^^^^^^^^^^^ R002 #2 read: ets sessions/<User> (confirmed, non_serializable)
              end,
    ets:insert(?TAB, {User, [Device | Devices]}),
%%  ^^^^^^^^^^ R002 #1 #2 write: overwrites a device added concurrently
    {ok, length(Devices) + 1}.

devices(User) ->
    case ets:lookup(?TAB, User) of
        [{User, Ds}] -> lists:sort(Ds);
        [] -> []
    end.

logout(User) ->
    ets:delete(?TAB, User).

test() ->
    setup(),
    Self = self(),
    Pids = [spawn(fun() -> Self ! {self(), login(alice, D)} end) || D <- [phone, laptop]],
    [receive {P, _} -> ok end || P <- Pids],
    Ds = devices(alice),
    logout(alice),
    teardown(),
    Ds.
