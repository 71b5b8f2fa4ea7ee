"""Kickline's asyncio websocket server: match hosting, storage and transport."""
