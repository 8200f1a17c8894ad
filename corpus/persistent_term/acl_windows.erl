%% An access list kept in one persistent term, {Allowed, Denied}, read and
%% written only through the helpers acl/0 and store/1. allow/1 and deny/1
%% each read it, add one address and store it back: two read-modify-writes,
%% one in each function (each is fixed where it is), over one helper pair.
%% Expected: R006 twice, one per window, each confirmed non_serializable.
-module(acl_windows).
-export([allow/1, deny/1, acl/0, test/0]).

-define(KEY, {?MODULE, acl}).

acl() ->
    persistent_term:get(?KEY, {[], []}).
%%  ^^^^^^^^^^^^^^^^^^^ R006 #1 #2 read: persistent_term {acl_windows, acl}, through allow/1 and deny/1

store(Acl) ->
    persistent_term:put(?KEY, Acl).
%%  ^^^^^^^^^^^^^^^^^^^ R006 #1 #2 write: an address added concurrently is lost

allow(Ip) ->
    {Allowed, Denied} = acl(),
    store({[Ip | Allowed], Denied}),
    ok.

deny(Ip) ->
    {Allowed, Denied} = acl(),
    store({Allowed, [Ip | Denied]}),
    ok.

test() ->
    Self = self(),
    Calls = [{allow, {10, 0, 0, 1}}, {allow, {10, 0, 0, 2}},
             {deny, {10, 0, 0, 3}}, {deny, {10, 0, 0, 4}}],
    Pids = [spawn(fun() -> Self ! {self(), ?MODULE:F(Ip)} end) || {F, Ip} <- Calls],
    [receive {P, ok} -> ok end || P <- Pids],
    Result = acl(),
    persistent_term:erase(?KEY),
    Result.
