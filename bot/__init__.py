"""The application: the service, storage and the front ends (console, Discord)."""
