%% Checks: the dynamic-trace tag BIFs of an emulator without VM probes (OTP's file module calls dt_spread_tag/1 and dt_restore_tag/1 around every file server request), and trace_delivered/1's reply.
-module(bif_dtrace_tags).
-export([main/0]).

c(F) -> try F() catch C:R -> {C, R} end.

main() ->
    Tags = [fun() -> erlang:dt_get_tag() end, fun() -> erlang:dt_get_tag_data() end,
            fun() -> erlang:dt_put_tag(<<"tag">>) end, fun() -> erlang:dt_put_tag("tag") end,
            fun() -> erlang:dt_put_tag(anything) end, fun() -> erlang:dt_get_tag() end,
            fun() -> erlang:dt_spread_tag(true) end, fun() -> erlang:dt_spread_tag(false) end,
            fun() -> erlang:dt_spread_tag(maybe) end,
            fun() -> erlang:dt_restore_tag(erlang:dt_spread_tag(true)) end,
            fun() -> erlang:dt_restore_tag(false) end, fun() -> erlang:dt_restore_tag(undefined) end,
            fun() -> erlang:dt_restore_tag({tag, 1}) end,
            fun() -> erlang:dt_prepend_vm_tag_data(<<"a">>) end,
            fun() -> erlang:dt_append_vm_tag_data("b") end,
            fun() -> erlang:dt_prepend_vm_tag_data(1) end,
            fun() -> erlang:dt_append_vm_tag_data(foo) end],
    io:format("tags ~p~n", [[c(F) || F <- Tags]]),
    %% The shape of file:call/2: spread, ask, restore.
    X = erlang:dt_spread_tag(true),
    Reply = {reply, X},
    io:format("around a call ~p~n", [{Reply, erlang:dt_restore_tag(X)}]),
    R1 = erlang:trace_delivered(all),
    io:format("all ~p~n", [receive {trace_delivered, all, R1} -> is_reference(R1) after 1000 -> timeout end]),
    Me = self(),
    R2 = erlang:trace_delivered(Me),
    io:format("self ~p~n", [receive {trace_delivered, Me, R2} -> R2 =/= R1 after 1000 -> timeout end]),
    Dead = spawn(fun() -> ok end),
    Ref = monitor(process, Dead),
    receive {'DOWN', Ref, process, Dead, _} -> ok end,
    R3 = erlang:trace_delivered(Dead),
    io:format("dead ~p~n", [receive {trace_delivered, Dead, R3} -> ok after 1000 -> timeout end]),
    io:format("errors ~p~n", [[c(fun() -> erlang:trace_delivered(T) end) || T <- [foo, 1, "all"]]]),
    io:format("mailbox ~p~n", [process_info(self(), message_queue_len)]),
    ok.
