%% racewit prelude: what the VM knows of the installation when the loader
%% handed in nothing (no OTP found, no application resources): racewit-otp
%% generates a module of this name that wins over this one.
-module(racewit_apps).
-export([root_dir/0, otp_release/0, resource/1, dir/1, origin/1, all/0]).

root_dir() -> "/usr/lib/erlang".
otp_release() -> "25".
resource(_) -> undefined.
dir(_) -> undefined.
origin(_) -> undefined.
all() -> [].
