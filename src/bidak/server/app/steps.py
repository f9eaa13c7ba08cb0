"""The capabilities' steps for a player's rows at a guest's sign-in, an account's deletion and
its export (:mod:`bidak.server.shared.store.player_steps`), gathered in one place: the app composes
the capabilities, so it is the one that may know all of them."""

from __future__ import annotations

from bidak.server.community.guest_queries import merge_reviewed
from bidak.server.fairplay.guest_queries import merge_fair_play, replaced_names
from bidak.server.friends.guest_queries import export_friends, forget_friends, merge_friends
from bidak.server.matchmaking.guest_queries import forget_queue, merge_queue
from bidak.server.notifications.push_queries import forget as forget_notifications
from bidak.server.play.guest_queries import export_seats, merge_seats
from bidak.server.shared.store.player_steps import PlayerSteps
from bidak.server.training.guest_queries import merge_training
from bidak.server.wallet.guest_queries import export_wallet, merge_wallet


def player_steps() -> PlayerSteps:
    """Every capability's steps; a new table that holds a player's rows adds its own here."""
    steps = PlayerSteps()
    steps.add(merge=merge_seats, export=export_seats)
    steps.add(merge=merge_wallet, export=export_wallet)
    steps.add(merge=merge_training)
    steps.add(merge=merge_reviewed)
    steps.add(merge=merge_fair_play, replaced_names=replaced_names)
    steps.add(merge=merge_queue, forget=forget_queue)
    steps.add(forget=forget_notifications)
    steps.add(merge=merge_friends, forget=forget_friends, export=export_friends)
    return steps
