"""Rooms: practice and friend tables, their options and the service that runs them."""
