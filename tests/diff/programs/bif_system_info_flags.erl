%% Checks: the erlang:system_info/1 items whose answer is the same for OTP 25's emulator on any 64-bit host, and a non-distributed node's dynamic_node_name.
-module(bif_system_info_flags).
-export([main/0]).

main() ->
    Items = [smp_support, threads, machine, debug_compiled, heap_type, compat_rel,
             multi_scheduling, build_type, time_warp_mode, time_correction, thread_pool_size,
             creation, sequential_tracer, wordsize, {wordsize, internal}, {wordsize, external},
             otp_release],
    [io:format("~p: ~p~n", [I, erlang:system_info(I)]) || I <- Items],
    io:format("~p~n", [try erlang:system_info({wordsize, other}) catch C:R -> {C, R} end]),
    io:format("dynamic node name: ~p~n", [erts_internal:dynamic_node_name()]),
    ok.
