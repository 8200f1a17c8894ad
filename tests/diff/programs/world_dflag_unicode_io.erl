%% Checks: net_kernel:dflag_unicode_io/1 (a BIF) is true for a local process and badarg for anything but a pid.
-module(world_dflag_unicode_io).
-export([main/0]).

main() ->
    P = spawn(fun() -> ok end),
    [net_kernel:dflag_unicode_io(self()), net_kernel:dflag_unicode_io(P),
     try net_kernel:dflag_unicode_io(self) catch C:R -> {C, R} end].
