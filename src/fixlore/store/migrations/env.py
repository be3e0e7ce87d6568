"""Alembic environment: run programmatically by Store.open() with a live connection."""

from alembic import context

from fixlore.store.schema import metadata

config = context.config


def run_migrations() -> None:
    connection = config.attributes.get("connection")
    if connection is None:                      # `alembic` command line: build an engine from the URL
        from sqlalchemy import create_engine

        with create_engine(config.get_main_option("sqlalchemy.url")).begin() as conn:
            context.configure(connection=conn, target_metadata=metadata, render_as_batch=True)
            with context.begin_transaction():
                context.run_migrations()
        return
    context.configure(connection=connection, target_metadata=metadata,
                      render_as_batch=connection.dialect.name == "sqlite")
    with context.begin_transaction():
        context.run_migrations()


run_migrations()
